import Scrollway

// A scroll view as big as the window, with 200 labelled rows as its content: a column of rows
// pinned to the content guide (its height is the content height) and as wide as the window.
let window = Window(size: Size(width: 390, height: 600))
let scrollView = ScrollView()
scrollView.fillsSuperview = true
window.addSubview(scrollView)
let rows = StackView(insets: EdgeInsets(top: 0, left: 16, bottom: 0, right: 16))
rows.translatesAutoresizingMaskIntoConstraints = false
scrollView.addSubview(rows)
for i in 0..<200 {
    let row = Label(text: "Row \(i + 1)")
    rows.addArrangedSubview(row)
    row.heightAnchor.constraint(equalToConstant: 44).isActive = true
}
LayoutConstraint.activate(
    rows.constraints(pinningEdgesTo: scrollView.contentLayoutGuide) + [
        rows.widthAnchor.constraint(equalTo: scrollView.frameLayoutGuide.widthAnchor)
    ])

// With a compositor: a real window, scrolled by touch, touchpad, wheel or keys. Without one
// (`--png FILE`): the first frame rendered offscreen, scrolled 300 px, written as a PNG.
// An error (no compositor, a PNG that cannot be written) ends the app with a message, not a trap.
WaylandApp.runMain {
    if let png = try WaylandApp.pngOutput(Array(CommandLine.arguments.dropFirst())) {
        window.layoutIfNeeded()
        scrollView.contentOffset = Point(x: 0, y: 300)
        let canvas = try Canvas(size: window.bounds.size, scale: window.scale)
        _ = try window.render(into: canvas)
        try PNG.write(canvas, toFile: png)
    } else {
        let app = try WaylandApp(content: window, title: "Hello, Scroll")
        try app.run()
    }
}
