/// Lines of text measured with one font at one device scale: what a label draws and what its
/// `sizeThatFits` reports, computed by the same code so measurement agrees with rendering.
public struct TextLayout: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        public var text: String
        /// Advance width in logical pixels (kerning included).
        public var width: Double
    }

    public var lines: [Line]
    public var metrics: FontMetrics

    /// Width of the widest line and height of all lines, in logical pixels.
    public var size: (width: Double, height: Double) {
        (lines.map(\.width).max() ?? 0, Double(lines.count) * metrics.lineHeight)
    }
}

/// The ellipsis appended to truncated text.
let ellipsis = "\u{2026}"

extension Font {
    /// The advance width of `text` in logical pixels at `scale`, kerning included.
    public func width(of text: String, scale: Double = 1) -> Double {
        guard let f = try? instance(scale: scale) else { return 0 }
        return Double(deviceAdvance(text.unicodeScalars, font: f)) / scale
    }

    /// Lays `text` out into lines: hard breaks at "\n"; when `maxWidth` is given, words wrap
    /// (a word longer than a line breaks between characters); `maxLines` (0 = unlimited) caps
    /// the count, and the last line kept ends in an ellipsis when text was cut. With
    /// `maxLines == 1` the one line is truncated with an ellipsis instead of wrapping.
    public func layout(_ text: String, maxWidth: Double? = nil, maxLines: Int = 0, scale: Double = 1) -> TextLayout {
        let m = metrics(scale: scale)
        guard let f = try? instance(scale: scale) else { return TextLayout(lines: [], metrics: m) }
        // A width beyond any line (or not a number) does not wrap.
        let limit = maxWidth.flatMap { w -> Int? in
            let px = (w * scale + 1e-9).rounded(.down)
            return px.isFinite && px < 1e15 ? Int(max(px, 0)) : nil
        }
        var lines: [String] = []
        var truncated = false
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let limit, maxLines != 1 {
                lines += wrap(paragraph, limit: limit, font: f)
            } else {
                lines.append(paragraph)
            }
            if maxLines > 0 && lines.count > maxLines {
                truncated = true
                break
            }
        }
        if maxLines > 0 && lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            truncated = true
        }
        if let limit {
            for i in lines.indices {
                let mustEllipsize = truncated && i == lines.count - 1
                lines[i] = fit(lines[i], limit: limit, font: f, forceEllipsis: mustEllipsize)
            }
        } else if truncated, let last = lines.indices.last {
            lines[last] += ellipsis
        }
        return TextLayout(
            lines: lines.map {
                TextLayout.Line(text: $0, width: Double(deviceAdvance($0.unicodeScalars, font: f)) / scale)
            },
            metrics: m)
    }

    /// Sum of advances plus kerning, in device pixels: the pen's travel when drawing.
    func deviceAdvance<S: Sequence>(_ scalars: S, font: FcftFont) -> Int where S.Element == Unicode.Scalar {
        var total = 0
        var previous: Unicode.Scalar?
        for s in scalars {
            if let p = previous { total += font.kerning(p, s) }
            total += Int(font.glyph(s)?.pointee.advance.x ?? 0)
            previous = s
        }
        return total
    }

    /// Greedy word wrap of one paragraph into lines no wider than `limit` device pixels.
    private func wrap(_ paragraph: String, limit: Int, font: FcftFont) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if deviceAdvance(candidate.unicodeScalars, font: font) <= limit {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            // A word wider than the line: break it between characters.
            var piece = ""
            for ch in word {
                let next = piece + String(ch)
                if !piece.isEmpty && deviceAdvance(next.unicodeScalars, font: font) > limit {
                    lines.append(piece)
                    piece = String(ch)
                } else {
                    piece = next
                }
            }
            current = piece
        }
        lines.append(current)
        return lines
    }

    /// The line itself when it fits, else its longest prefix that fits with an ellipsis.
    private func fit(_ line: String, limit: Int, font: FcftFont, forceEllipsis: Bool) -> String {
        if !forceEllipsis && deviceAdvance(line.unicodeScalars, font: font) <= limit { return line }
        var chars = Array(line)
        while true {
            let candidate = String(chars) + ellipsis
            if chars.isEmpty || deviceAdvance(candidate.unicodeScalars, font: font) <= limit {
                return chars.isEmpty && deviceAdvance(ellipsis.unicodeScalars, font: font) > limit ? "" : candidate
            }
            chars.removeLast()
            while chars.last == " " { chars.removeLast() }
        }
    }
}
