import Foundation
import KithCore

extension FamilySnapshot {
    /// What became of `notice`'s reminder since it came, as this family stands: the same words on
    /// the notices page and in `/v1/inbox`. A member's reminder that is gone was deleted.
    func aftermath(of notice: NoticeDTO) -> NoticeAftermath? {
        let reminder = UUID(text: notice.reminderId).flatMap { self.reminder($0) }
        return NoticePlan.since(notice, reminder: reminder)
    }
}
