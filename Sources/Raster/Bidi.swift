import ScrollwayCFribidi
import ScrollwayGeometry

/// The base direction of a paragraph: its own (rules P2–P3: its first strong character's,
/// left to right when it has none), or one it is given. A text view's wrapped lines and a
/// field's part in sight are laid out in their whole paragraph's direction, which the part's
/// own first strong character can differ from ("abc שלום" wrapped before "שלום").
public enum TextDirection: Sendable, Hashable {
    case natural, leftToRight, rightToLeft

    /// `text`'s own direction under rules P2–P3: its first strong character's outside any
    /// isolate (left to right when it has none). Reads only up to that character.
    public static func of<S: StringProtocol>(_ text: S) -> TextDirection {
        firstStrong(in: text) ?? .leftToRight
    }

    /// The direction of `text`'s first strong character outside any isolate (rule P2), nil when
    /// it has none: a caller reading a long text in parts goes on to the next part.
    public static func firstStrong<S: StringProtocol>(in text: S) -> TextDirection? {
        var isolates = 0
        for scalar in text.unicodeScalars {
            // Below U+00AA every letter is a strong L and nothing opens an isolate.
            if scalar.value < 0xAA {
                if isolates == 0, scalar.properties.isAlphabetic { return .leftToRight }
                continue
            }
            switch sw_fribidi_p2_class(FriBidiChar(scalar.value)) {
            case 1 where isolates == 0: return .leftToRight
            case 2 where isolates == 0: return .rightToLeft
            case 3: isolates += 1
            case 4: isolates = max(0, isolates - 1)
            default: break
            }
        }
        return nil
    }

    /// Whether `text` laid out in this direction runs right to left.
    func runsRightToLeft<S: StringProtocol>(_ text: S) -> Bool {
        switch self {
        case .natural: Self.of(text) == .rightToLeft
        case .leftToRight: false
        case .rightToLeft: true
        }
    }
}

/// One paragraph's embedding levels under the Unicode Bidirectional Algorithm (UAX #9), from
/// fribidi: even levels run left to right, odd ones right to left. The base direction comes
/// from the paragraph's first strong character (rules P2–P3; left to right when there is none).
///
/// fribidi resolves the levels (rules P2–I2 and L1's paragraph-end whitespace); reordering is
/// done per line, after line breaking, by `visualOrder` (rule L2), because which characters
/// share a line decides what gets reversed with what.
struct BidiParagraph: Sendable {
    /// A level per code point; empty when every level is 0.
    let levels: [UInt8]
    let isRightToLeft: Bool

    /// The paragraph's own level: what an ellipsis at its end takes.
    var baseLevel: UInt8 { isRightToLeft ? 1 : 0 }

    func level(at index: Int) -> UInt8 { levels.isEmpty ? 0 : levels[index] }

    /// Resolves `scalars` (one paragraph, no "\n" inside) in `direction`: a natural one's
    /// comes from its first strong character.
    ///
    /// Text with nothing from U+0590 up has no right-to-left letter (R, AL), no Arabic digit
    /// (AN) and no explicit embedding or isolate: unless made to run right to left, every level
    /// is 0 and fribidi is not asked.
    init(_ scalars: [Unicode.Scalar], direction: TextDirection = .natural) {
        guard direction == .rightToLeft || scalars.contains(where: { $0.value >= 0x0590 }) else {
            levels = []
            isRightToLeft = false
            return
        }
        let n = scalars.count
        let chars = scalars.map { FriBidiChar($0.value) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var resolved = [FriBidiLevel](repeating: 0, count: n)
        var base =
            switch direction {
            case .natural: sw_fribidi_par_auto()
            case .leftToRight: sw_fribidi_par_ltr()
            case .rightToLeft: sw_fribidi_par_rtl()
            }
        fribidi_get_bidi_types(chars, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(chars, FriBidiStrIndex(n), types, &brackets)
        let maxLevel = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &resolved)
        guard maxLevel > 0 else {
            // fribidi failed (out of memory): left to right, as unshaped text was.
            levels = []
            isRightToLeft = false
            return
        }
        levels = resolved.map { UInt8(clamping: Int($0)) }
        isRightToLeft = sw_fribidi_par_is_rtl(base)
    }

    /// Rule L4: in right-to-left text a character with a mirrored form ("(", "[", "<", "«")
    /// is drawn as that form, so "(abc)" inside Hebrew still opens towards "abc". HarfBuzz
    /// would mirror in a right-to-left run, but fcft shapes parentheses (script Common) left to
    /// right, so the layout substitutes them before shaping.
    static func mirrored(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        var mirror: FriBidiChar = 0
        guard fribidi_get_mirror_char(FriBidiChar(scalar.value), &mirror) != 0, let m = Unicode.Scalar(mirror) else {
            return scalar
        }
        return m
    }

    /// Rule L2 for one line: the visual order (left to right) of items with these levels in
    /// logical order. From the highest level down to the lowest odd one, every maximal run at
    /// that level or higher is reversed.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), highest > 0 else { return order }
        let lowestOdd = levels.filter { $0 % 2 == 1 }.min() ?? 1
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
