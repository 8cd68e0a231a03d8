import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayViews
import ScrollwayWaylandProtocols

// Decorations: the compositor's (xdg-decoration) when it offers them, else our own title bar,
// never in fullscreen; interactive move and resize from the title bar and the edges.

extension WaylandWindow {
    func decorationConfigure(mode: UInt32) {
        serverSideDecorated = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
    }

    /// Whether this window draws its own title bar now.
    public var drawsTitleBar: Bool { clientSideDecorations && !serverSideDecorated && !isFullscreen }

    /// Adds or removes the title bar to match the window's state; content fills the rest.
    func updateDecorations() {
        if drawsTitleBar {
            if titleBar == nil {
                let bar = TitleBar(title: title)
                bar.onClose = { [weak self] in self?.closeRequested = true }
                bar.onMoveRequest = { [weak self] in self?.startMove() }
                titleBar = bar
                content.addSubview(bar)
            }
            titleBar!.frame = Rect(x: 0, y: 0, width: content.bounds.width, height: TitleBar.height)
            content.bringSubviewToFront(titleBar!)
            content.fillInsets = EdgeInsets(top: TitleBar.height, left: 0, bottom: 0, right: 0)
        } else if let bar = titleBar {
            bar.removeFromSuperview()
            titleBar = nil
            content.fillInsets = .zero
        }
    }

    private func startMove() {
        guard let seat = connection.seat else { return }
        xdg_toplevel_move(toplevel, seat, connection.input.lastButtonSerial)
    }

    /// A press within 6 px of a decorated window's edge starts an interactive resize.
    func startResizeIfOnEdge(at p: Point, serial: UInt32) -> Bool {
        guard drawsTitleBar, let seat = connection.seat else { return false }
        let edge = ResizeEdge.at(p, in: content.bounds.size)
        guard edge != 0 else { return false }
        xdg_toplevel_resize(toplevel, seat, serial, edge)
        return true
    }
}
