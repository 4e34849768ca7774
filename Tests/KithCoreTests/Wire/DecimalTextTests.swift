import KithCore
import Testing

/// Numbers typed into forms and options are plain decimals, never read as something else.
@Suite("Decimal text")
struct DecimalTextTests {
    @Test func plainDecimalsAreReadWithAPointOrAComma() {
        #expect(DecimalText.parse("250") == 250)
        #expect(DecimalText.parse(" 12.5 ") == 12.5)
        #expect(DecimalText.parse("12,5") == 12.5)
        #expect(DecimalText.parse(".5") == 0.5)
        #expect(DecimalText.parse("-3") == -3)
        #expect(DecimalText.parse("+7") == 7)
    }

    @Test func whatSwiftWouldReadAsAnotherNumberIsRefused() {
        for text in ["0x10", "0X1p4", "1e3", "1E-2", "inf", "-infinity", "nan", "", " ", "-", "1.", "1.2.3", "1,2,3", "1.2,3", "12 kcal", "٣", "1_000"] {
            #expect(DecimalText.parse(text) == nil, "\(text)")
        }
    }
}
