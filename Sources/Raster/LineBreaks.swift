/// Where a paragraph may wrap: a simplified Unicode Line Breaking Algorithm (UAX #14).
///
/// Classes (a subset of UAX #14's, enough for UI text):
/// - `space`: SP (U+0020), tab, ideographic space U+3000. A line may break after spaces (LB18),
///   never before them (LB7); spaces at a line's end hang (are not drawn or measured).
/// - `zeroWidthSpace`: ZW (U+200B). Break after it (LB8), never before (LB7).
/// - `glue`: GL and WJ (no-break spaces U+00A0, U+202F, U+2007, word joiner U+2060, U+FEFF,
///   zero width joiner U+200D). No break on either side (LB11, LB12, LB12a).
/// - `opening`: OP (`(`, `[`, `{`, `¡`, `¿`, CJK opening brackets). No break after (LB14).
/// - `closing`: CL, CP, EX, IS, SY (`)`, `]`, `}`, `!`, `?`, `,`, `.`, `:`, `;`, `/`, CJK
///   closing brackets and full stops) and NS (Japanese small kana, prolonged sound mark,
///   iteration marks). No break before, even after a space (LB13, LB16, LB21).
/// - `hyphen`: HY and BA (`-`, U+2010 hyphen, U+2012 figure dash, U+2013 en dash, U+00AD soft
///   hyphen, U+058A Armenian hyphen). Break after, not before (LB21), and not between a
///   hyphen and a digit ("-5", LB25).
/// - `ideographic`: ID (CJK ideographs, kana, Hangul syllables, fullwidth letters, emoji).
///   Break before and after unless a rule above forbids it (LB31).
/// - `numeric`: ASCII digits (only for the hyphen rule), `other`: everything else (AL): no
///   break inside a run of them.
///
/// Left out: quotation marks (QU), prefix and postfix numeric (PR, PO), Thai and Lao word
/// breaking (SA, which needs a dictionary), regional indicators and mandatory breaks (the layout
/// splits paragraphs at every one: `Font.paragraphs`). Breaks come only between grapheme clusters: the
/// layout asks at shaped cluster starts.
enum LineBreaks {
    enum Class: Equatable {
        case space, zeroWidthSpace, glue, opening, closing, hyphen, ideographic, numeric, other
    }

    /// For each index `i` in `scalars`: may a line break before `scalars[i]`? Index 0 is false.
    static func opportunities(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var result = [Bool](repeating: false, count: scalars.count)
        guard scalars.count > 1 else { return result }
        var before = lineBreakClass(scalars[0])
        for i in 1..<scalars.count {
            let after = lineBreakClass(scalars[i])
            result[i] = breakBetween(before, after)
            before = after
        }
        return result
    }

    /// The rules above, in UAX #14's order of precedence.
    static func breakBetween(_ a: Class, _ b: Class) -> Bool {
        if b == .space || b == .zeroWidthSpace { return false }  // LB7
        if a == .zeroWidthSpace { return true }  // LB8
        if b == .closing { return false }  // LB13, LB16, LB21 (NS)
        if a == .glue { return false }  // LB11, LB12
        if b == .glue { return a == .space || a == .hyphen }  // LB12a
        if a == .opening { return false }  // LB14
        if a == .space { return true }  // LB18
        if b == .hyphen { return false }  // LB21
        if a == .hyphen { return b != .numeric }  // LB21 break after, LB25 no "-5" break
        if a == .ideographic || b == .ideographic { return true }  // LB31
        return false
    }

    static func lineBreakClass(_ s: Unicode.Scalar) -> Class {
        let v = s.value
        switch v {
        case 0x20, 0x09, 0x3000: return .space
        case 0x200B: return .zeroWidthSpace
        case 0xA0, 0x202F, 0x2007, 0x2060, 0xFEFF, 0x200D: return .glue
        case 0x28, 0x5B, 0x7B, 0xA1, 0xBF, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A,
            0xFF08, 0xFF3B, 0xFF5B, 0xFF62:
            return .opening
        case 0x29, 0x5D, 0x7D, 0x21, 0x3F, 0x2C, 0x2E, 0x3A, 0x3B, 0x2F, 0x3001, 0x3002, 0x3009, 0x300B, 0x300D,
            0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,
            0xFF3D, 0xFF5D, 0xFF61, 0xFF63, 0xFF64:
            return .closing
        // NS: small kana, the prolonged sound mark, iteration marks, the katakana middle dot.
        case 0x3005, 0x301C, 0x303B, 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E,
            0x3095, 0x3096, 0x309D, 0x309E, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7,
            0x30EE, 0x30F5, 0x30F6, 0x30FB, 0x30FC, 0x30FD, 0x30FE, 0xFF70:
            return .closing
        case 0x2D, 0x2010, 0x2012, 0x2013, 0xAD, 0x58A: return .hyphen
        case 0x30...0x39: return .numeric
        case 0x2E80...0x2FFF, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFF01...0xFF60, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF,
            0x20000...0x3FFFD:
            return .ideographic
        default: return .other
        }
    }
}
