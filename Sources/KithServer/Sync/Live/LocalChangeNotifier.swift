/// On SQLite only one server process uses the file, so nudges stay in the process.
struct LocalChangeNotifier: ChangeNotifier {
    let hub: LiveHub

    func committed(_ changes: [ScopeChange]) async {
        for change in changes { hub.deliver(change) }
    }
}
