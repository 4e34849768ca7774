import Foundation
import KithCore
import Testing

@Suite("Checklist text in a task's description")
struct ChecklistTextTests {
    @Test func writesOneLinePerItem() {
        let items = [
            ChecklistText.Item("milk"), ChecklistText.Item("bread", done: true), ChecklistText.Item("two\nlines"),
        ]
        #expect(ChecklistText.write(items) == "[ ] milk\n[x] bread\n[ ] two lines")
        #expect(
            ChecklistText.parse(ChecklistText.write(items)) == [
                ChecklistText.Item("milk"), ChecklistText.Item("bread", done: true), ChecklistText.Item("two lines"),
            ])
    }

    @Test func readsWhatPhonesAndPeopleWrite() {
        let description =
            "- [ ] eggs\r\n- [x] flour\n☐ butter\n☑ sugar\n✓ salt\n  \n[X]  jam  \nsomething typed on the phone\n[ ]\n"
        #expect(
            ChecklistText.parse(description) == [
                ChecklistText.Item("eggs"), ChecklistText.Item("flour", done: true), ChecklistText.Item("butter"),
                ChecklistText.Item("sugar", done: true), ChecklistText.Item("salt", done: true),
                ChecklistText.Item("jam", done: true),
                ChecklistText.Item("something typed on the phone"),
            ])
        #expect(ChecklistText.parse("") == [])
    }
}
