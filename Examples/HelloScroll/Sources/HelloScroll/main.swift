import Scrollway

// A scroll view as big as the window, with 200 labelled rows as its content.
let window = Window(size: Size(width: 390, height: 600))
let scrollView = ScrollView()
scrollView.fillsSuperview = true
let rowHeight = 44.0
for i in 0..<200 {
    let row = Label(text: "Row \(i + 1)", frame: Rect(x: 16, y: Double(i) * rowHeight, width: 358, height: rowHeight))
    scrollView.addSubview(row)
}
scrollView.contentSize = Size(width: 390, height: 200 * rowHeight)
window.addSubview(scrollView)

// With a compositor: a real window, scrolled by touch, touchpad, wheel or keys. Without one
// (`--png FILE`): the first frame rendered offscreen, scrolled 300 px, written as a PNG.
let arguments = CommandLine.arguments
if let i = arguments.firstIndex(of: "--png"), i + 1 < arguments.count {
    scrollView.contentOffset = Point(x: 0, y: 300)
    let canvas = try Canvas(size: window.bounds.size, scale: window.scale)
    _ = try window.render(into: canvas)
    try PNG.write(canvas, toFile: arguments[i + 1])
} else {
    let app = try WaylandApp(content: window, title: "Hello, Scroll")
    try app.run()
}
