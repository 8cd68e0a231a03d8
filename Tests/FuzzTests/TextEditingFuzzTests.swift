import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// `TextEditing` walks only from where its caret was (its memo) instead of the whole text
/// (issue 36, item 12: a keystroke at the end of 60,000 characters walked all of them). Seeded
/// random edits over characters that join (combining marks, regional indicators, zero-width
/// joiners, Hangul jamo, CR LF) and setting the text from outside must leave it exactly where
/// the plain model, which counts everything again each time, leaves it.
@Suite struct TextEditingFuzzTests {
    /// The model as it was: character arrays rebuilt on every operation.
    struct Plain {
        var text: String
        var caret: Int
        var anchor: Int
        var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }

        func characterIndex(atByte byte: Int, roundingUp: Bool) -> Int {
            guard byte > 0 else { return 0 }
            var bytes = 0
            for (i, ch) in text.enumerated() {
                let next = bytes + ch.utf8.count
                if next > byte { return roundingUp && byte > bytes ? i + 1 : i }
                bytes = next
            }
            return text.count
        }

        mutating func moveCaret(to index: Int, extending: Bool) {
            caret = min(max(0, index), text.count)
            if !extending { anchor = caret }
        }

        mutating func replaceSelection(with s: String) {
            let chars = Array(text)
            let r = selection
            let head = String(chars[..<r.lowerBound])
            text = head + s + String(chars[r.upperBound...])
            moveCaret(to: characterIndex(atByte: head.utf8.count + s.utf8.count, roundingUp: true), extending: false)
        }
    }

    static let pieces = [
        "a", "e", "\u{301}", "\u{308}", "🇺", "🇸", "👍", "\u{1F3FD}", "\u{200D}", "👩", "\u{1100}", "\u{1161}",
        "\u{11A8}", "\r", "\n", "x\u{301}y", " ", "ש", "漢", "",
    ]

    @Test(arguments: [1, 2, 3, 4])
    func editsLandWhereThePlainModelPutsThem(seed: UInt64) {
        var rng = SeededRandom(state: seed)
        var editing = TextEditing()
        var plain = Plain(text: "", caret: 0, anchor: 0)
        func piece() -> String {
            (0..<Int(rng.next() % 4)).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }.joined()
        }
        for step in 0..<FuzzBudget.cases(4000) {
            let n = plain.text.count
            switch rng.next() % 10 {
            case 0, 1, 2, 3:
                let s = piece()
                editing.replaceSelection(with: s)
                plain.replaceSelection(with: s)
            case 4:
                let to = Int(rng.next() % UInt64(n + 3)) - 1
                let extending = rng.next() % 2 == 0
                editing.moveCaret(to: to, extending: extending)
                plain.moveCaret(to: to, extending: extending)
            case 5:
                editing.deleteBackward()
                if plain.selection.isEmpty { plain.anchor = max(0, plain.caret - 1) }
                plain.replaceSelection(with: "")
            case 6:
                editing.deleteForward()
                if plain.selection.isEmpty { plain.anchor = min(n, plain.caret + 1) }
                plain.replaceSelection(with: "")
            case 7:
                // Deleting bytes around the caret, as an input method does.
                let before = Int(rng.next() % 6)
                let after = Int(rng.next() % 6)
                editing.apply(TextInputUpdate(deleteBefore: before, deleteAfter: after))
                let caretByte = String(Array(plain.text)[..<plain.caret]).utf8.count
                plain.anchor = plain.characterIndex(atByte: caretByte - before, roundingUp: false)
                plain.caret = plain.characterIndex(atByte: caretByte + after, roundingUp: true)
                plain.replaceSelection(with: "")
            case 8:
                editing.selectAll()
                plain.anchor = 0
                plain.caret = n
            default:
                // The text set from outside (a view's `text`), then clamped.
                let s = rng.next() % 4 == 0 ? piece() + plain.text : plain.text + piece()
                editing.text = s
                editing.clamp()
                plain.text = s
                plain.caret = min(plain.caret, s.count)
                plain.anchor = min(plain.anchor, s.count)
            }
            #expect(editing.text == plain.text, "step \(step) of seed \(seed)")
            #expect(editing.caret == plain.caret && editing.anchor == plain.anchor, "step \(step) of seed \(seed)")
            #expect(editing.characterCount == plain.text.count, "step \(step) of seed \(seed)")
            let k = Int(rng.next() % UInt64(plain.text.count + 1))
            #expect(
                editing.byteOffset(ofCharacter: k) == String(Array(plain.text)[..<k]).utf8.count,
                "step \(step) of seed \(seed)")
            let b = Int(rng.next() % UInt64(plain.text.utf8.count + 2))
            #expect(
                editing.characterIndex(atByte: b, roundingUp: true)
                    == plain.characterIndex(atByte: b, roundingUp: true),
                "step \(step) of seed \(seed)")
            guard editing.text == plain.text, editing.caret == plain.caret else { return }
        }
    }
}
