import Scrollway
import Testing

/// Baseline anchors (UIKit's `firstBaselineAnchor` and `lastBaselineAnchor`): a label's stand
/// on its first and last lines' baselines as it draws them, a plain view's on its bottom edge,
/// and constraints to them follow a new text, font or width. Expected positions are worked
/// out from the font's own metrics, not from the views' `baselines(forWidth:)`.
@MainActor
@Suite struct BaselineTests {
    /// A 10×2 view placed by constraints whose top edge is pinned to `anchor`: where it lands
    /// is where layout put the anchor.
    func marker(in window: Window, at anchor: LayoutYAxisAnchor, x: Double = 0) -> View {
        let m = View()
        m.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(m)
        LayoutConstraint.activate([
            m.topAnchor.constraint(equalTo: anchor),
            m.leftAnchor.constraint(equalTo: window.leftAnchor, constant: x),
            m.widthAnchor.constraint(equalToConstant: 10),
            m.heightAnchor.constraint(equalToConstant: 2),
        ])
        return m
    }

    /// A label placed by constraints at (`x`, `y`) in `window`.
    func label(_ text: String, font: Font, in window: Window, x: Double = 20, y: Double? = 30) -> Label {
        let l = Label(text: text)
        l.font = font
        l.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(l)
        l.leftAnchor.constraint(equalTo: window.leftAnchor, constant: x).isActive = true
        if let y { l.topAnchor.constraint(equalTo: window.topAnchor, constant: y).isActive = true }
        return l
    }

    @Test func aLabelsBaselinesAreItsTopPlusTheAscent() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let window = Window(size: Size(width: 400, height: 300))
        let title = label("Notifications", font: font, in: window)
        let first = marker(in: window, at: title.firstBaselineAnchor)
        let last = marker(in: window, at: title.lastBaselineAnchor, x: 20)
        window.layoutIfNeeded()
        // One line, the label as tall as it: the baseline is an ascent below its top.
        #expect(title.frame.height == m.lineHeight)
        #expect(first.frame.minY == title.frame.minY + m.ascent)
        #expect(last.frame.minY == first.frame.minY)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A plain view's baselines are its bottom edge, as UIKit's are.
    @Test func aViewWithoutTextHasItsBaselinesAtItsBottom() {
        let window = Window(size: Size(width: 400, height: 300))
        let box = View(frame: Rect(x: 40, y: 50, width: 100, height: 70))
        window.addSubview(box)
        let first = marker(in: window, at: box.firstBaselineAnchor)
        let last = marker(in: window, at: box.lastBaselineAnchor)
        window.layoutIfNeeded()
        #expect(first.frame.minY == 120 && last.frame.minY == 120)
        box.frame = Rect(x: 40, y: 50, width: 100, height: 90)
        window.layoutIfNeeded()
        #expect(first.frame.minY == 140)
    }

    /// Two labels of different sizes aligned on their first baselines: their text stands on
    /// one line on screen, the large one's top higher by the difference of the ascents.
    @Test func labelsOfDifferentFontsAlignOnTheirFirstBaselines() throws {
        let small = try Font.system(size: 15)
        let large = try Font.system(size: 32)
        let window = Window(size: Size(width: 600, height: 300))
        let name = label("Name", font: small, in: window, x: 20, y: 60)
        let heading = label("Heading", font: large, in: window, x: 200, y: nil)
        heading.firstBaselineAnchor.constraint(equalTo: name.firstBaselineAnchor).isActive = true
        window.layoutIfNeeded()
        let a = small.metrics(scale: 1)
        let b = large.metrics(scale: 1)
        #expect(name.frame.minY + a.ascent == heading.frame.minY + b.ascent)
        #expect(heading.frame.minY == 60 + a.ascent - b.ascent)
        #expect(heading.frame.minY < name.frame.minY)
        // A new font moves the baseline, and the heading with it.
        name.font = large
        window.layoutIfNeeded()
        #expect(heading.frame.minY == name.frame.minY)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A label taller than its text centres it, as it draws it: its baselines move down by
    /// half the height it gained (a frame placed at a baseline stands on the pixel grid, as
    /// every solved frame does, and as the drawn baseline does).
    @Test func aTallLabelsBaselinesAreWhereItDrawsItsCentredText() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let window = Window(size: Size(width: 400, height: 300))
        let title = label("Notifications", font: font, in: window)
        let height = title.heightAnchor.constraint(equalToConstant: 100)
        height.isActive = true
        let first = marker(in: window, at: title.firstBaselineAnchor)
        window.layoutIfNeeded()
        #expect(first.frame.minY == (30 + (100 - m.lineHeight) / 2 + m.ascent).rounded())
        height.constant = 60
        window.layoutIfNeeded()
        #expect(first.frame.minY == (30 + (60 - m.lineHeight) / 2 + m.ascent).rounded())
    }

    /// A new line in a wrapping label moves its last baseline down by a line height and
    /// leaves its first where it was; so does a narrower width that breaks the text into more
    /// lines (its baselines are measured again at the width layout solved, as its height is).
    @Test func aLabelsLastBaselineFollowsItsLines() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let window = Window(size: Size(width: 600, height: 400))
        let note = label("First line", font: font, in: window)
        note.numberOfLines = 0
        let width = note.widthAnchor.constraint(equalToConstant: 500)
        width.isActive = true
        let first = marker(in: window, at: note.firstBaselineAnchor)
        let last = marker(in: window, at: note.lastBaselineAnchor, x: 20)
        window.layoutIfNeeded()
        #expect(first.frame.minY == 30 + m.ascent && last.frame.minY == 30 + m.ascent)
        note.text = "First line\nSecond line"
        window.layoutIfNeeded()
        #expect(note.frame.height == 2 * m.lineHeight)
        #expect(first.frame.minY == 30 + m.ascent)
        #expect(last.frame.minY == 30 + m.ascent + m.lineHeight)

        let text = String(repeating: "Scrolling lists wrap their longer lines. ", count: 3)
        note.text = text
        window.layoutIfNeeded()
        #expect(font.layout(text, maxWidth: 500, maxLines: 0, scale: 1).lines.count == 2)
        #expect(last.frame.minY == 30 + m.ascent + m.lineHeight)
        width.constant = 150
        window.layoutIfNeeded()
        let lines = font.layout(text, maxWidth: 150, maxLines: 0, scale: 1).lines.count
        #expect(lines > 2)
        #expect(last.frame.minY == 30 + m.ascent + Double(lines - 1) * m.lineHeight)
        #expect(first.frame.minY == 30 + m.ascent)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A field's and a button's baselines are their one line's, centred in their 44 points: a
    /// form's label stands on the line of the text typed beside it.
    @Test func aLabelAlignsWithAFieldsAndAButtonsText() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let window = Window(size: Size(width: 600, height: 300))
        let field = TextField(placeholder: "Name", frame: Rect(x: 120, y: 40, width: 200, height: 44))
        let button = Button(title: "Save", frame: Rect(x: 120, y: 100, width: 100, height: 44))
        window.addSubview(field)
        window.addSubview(button)
        let nameLabel = label("Name", font: font, in: window, y: nil)
        let saveLabel = label("Then", font: font, in: window, y: nil)
        LayoutConstraint.activate([
            nameLabel.firstBaselineAnchor.constraint(equalTo: field.firstBaselineAnchor),
            saveLabel.lastBaselineAnchor.constraint(equalTo: button.lastBaselineAnchor),
        ])
        window.layoutIfNeeded()
        // The labels' tops on the pixel grid, as every solved frame's are.
        let standard = try #require(Font.standard).metrics(scale: 1)
        let fieldLine = (44 - standard.lineHeight) / 2 + standard.ascent
        #expect(nameLabel.frame.minY == (40 + fieldLine - m.ascent).rounded())
        #expect(saveLabel.frame.minY == (100 + fieldLine - m.ascent).rounded())
        // The field's font moves its baseline.
        let large = try Font.system(size: 24)
        field.font = large
        window.layoutIfNeeded()
        let l = large.metrics(scale: 1)
        #expect(nameLabel.frame.minY == (40 + (44 - l.lineHeight) / 2 + l.ascent - m.ascent).rounded())
        #expect(nameLabel.frame.minY != (40 + fieldLine - m.ascent).rounded())
    }

    /// A text view draws its text from its inset's top, not centred: its first baseline is the
    /// inset and an ascent below its top, and a line typed moves its last one down a line.
    @Test func aTextViewsBaselinesAreItsLinesFromTheInsetsTop() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let window = Window(size: Size(width: 600, height: 400))
        let notes = TextView()
        notes.font = font
        notes.isScrollEnabled = false
        notes.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(notes)
        LayoutConstraint.activate([
            notes.leftAnchor.constraint(equalTo: window.leftAnchor, constant: 200),
            notes.topAnchor.constraint(equalTo: window.topAnchor, constant: 40),
            notes.widthAnchor.constraint(equalToConstant: 300),
        ])
        let first = marker(in: window, at: notes.firstBaselineAnchor)
        let last = marker(in: window, at: notes.lastBaselineAnchor, x: 20)
        notes.text = "One line"
        window.layoutIfNeeded()
        let top = 40 + notes.textInset.top + m.ascent
        #expect(first.frame.minY == top && last.frame.minY == top)
        notes.text = "One line\nand another"
        window.layoutIfNeeded()
        #expect(first.frame.minY == top)
        #expect(last.frame.minY == top + m.lineHeight)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A fitting size counts a baseline: a cell whose footer hangs 10 below its wrapping
    /// label's last baseline is as tall as the lines the label breaks into at the width asked.
    @Test func aFittingSizeMeasuresTheLastBaselineAtTheWidthAsked() throws {
        let font = try Font.system(size: 15)
        let m = font.metrics(scale: 1)
        let text = String(repeating: "Scrolling lists wrap their longer lines. ", count: 3)
        let cell = View()
        let body = Label(text: text)
        body.font = font
        body.numberOfLines = 0
        let footer = View()
        for v in [body, footer] {
            v.translatesAutoresizingMaskIntoConstraints = false
            cell.addSubview(v)
        }
        LayoutConstraint.activate([
            body.topAnchor.constraint(equalTo: cell.topAnchor),
            body.leadingAnchor.constraint(equalTo: cell.leadingAnchor),
            body.trailingAnchor.constraint(equalTo: cell.trailingAnchor),
            footer.topAnchor.constraint(equalTo: body.lastBaselineAnchor, constant: 10),
            footer.leadingAnchor.constraint(equalTo: cell.leadingAnchor),
            footer.widthAnchor.constraint(equalToConstant: 10),
            footer.heightAnchor.constraint(equalToConstant: 4),
            footer.bottomAnchor.constraint(equalTo: cell.bottomAnchor),
        ])
        for width in [300.0, 120] {
            let lines = font.layout(text, maxWidth: width, maxLines: 0, scale: 1).lines.count
            let size = cell.systemLayoutSizeFitting(
                Size(width: width, height: 0), horizontalFittingPriority: .required)
            #expect(size.height == m.ascent + Double(lines - 1) * m.lineHeight + 14, "at \(width)")
        }
    }

    /// A row stack aligned on its views' first baselines (UIStackView's `.firstBaseline`):
    /// text of two sizes and a plain view stand on one line, the view reaching highest at the
    /// top inset, and the stack hugs them; on their last baselines a two-line label's second
    /// line stands on it. A column ignores it and fills. (Frames are in the stack's
    /// coordinates: its top inset is 10.)
    @Test func aRowStackLinesItsViewsUpOnTheirBaselines() throws {
        let small = try Font.system(size: 15)
        let large = try Font.system(size: 32)
        let (a, b) = (small.metrics(scale: 1), large.metrics(scale: 1))
        let window = Window(size: Size(width: 600, height: 300))
        let name = Label(text: "Name")
        name.font = small
        let heading = Label(text: "Heading")
        heading.font = large
        let box = View()
        box.translatesAutoresizingMaskIntoConstraints = false
        let stack = StackView(axis: .horizontal, spacing: 8)
        for v in [name, heading, box] { stack.addArrangedSubview(v) }
        stack.alignment = .firstBaseline
        stack.insets = EdgeInsets(top: 10, left: 0, bottom: 6, right: 0)
        stack.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(stack)
        LayoutConstraint.activate([
            stack.leftAnchor.constraint(equalTo: window.leftAnchor, constant: 20),
            stack.topAnchor.constraint(equalTo: window.topAnchor, constant: 40),
            box.widthAnchor.constraint(equalToConstant: 20), box.heightAnchor.constraint(equalToConstant: 20),
        ])
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        let line = name.frame.minY + a.ascent
        #expect(heading.frame.minY + b.ascent == line && box.frame.maxY == line)
        // The large text reaches highest (its ascent is more than the box's 20 and the small
        // text's): at the top inset, and the stack as tall as it needs.
        #expect(b.ascent > 20 && heading.frame.minY == 10)
        #expect(name.frame.minY == 10 + b.ascent - a.ascent)
        let bottom = [name, heading, box].map(\.frame.maxY).max() ?? 0
        #expect(stack.frame.minY == 40 && stack.frame.height == bottom + 6)
        // In a taller stack, they stand as high as they can.
        let tall = stack.heightAnchor.constraint(equalToConstant: 150)
        tall.isActive = true
        window.layoutIfNeeded()
        #expect(stack.frame.height == 150 && heading.frame.minY == 10 && box.frame.maxY == line)
        tall.isActive = false

        // On their last baselines: the second line of a two-line name.
        name.numberOfLines = 0
        name.text = "Name\nSurname"
        stack.alignment = .lastBaseline
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        let last = name.frame.minY + a.ascent + a.lineHeight
        #expect(heading.frame.minY + b.ascent == last && box.frame.maxY == last)
        #expect([name, heading, box].map(\.frame.minY).min() == 10)

        // A column fills across, as with `.fill`.
        stack.axis = .vertical
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        #expect(name.frame.width == heading.frame.width && box.frame.width == name.frame.width)
        #expect(name.frame.minX == 0 && heading.frame.minY > name.frame.maxY)
    }
}
