import ScrollwayRaster
import ScrollwayWestonHarness

/// A rig of a wlroots compositor (sway, phoc): what the rig's own wlroots connection
/// (`WlrootsSeat`) gives every such rig, written once: the seat, captures, replugging, and the
/// input method's view of the focused text input.
public protocol WlrootsRig: CompositorRig {
    var control: WlrootsSeat { get }
}

extension WlrootsRig {
    public var seat: any SeatInput { control }

    public func capture() throws -> Canvas { try control.capture() }

    public func replug(_ device: SeatDevice) throws {
        switch device {
        case .keyboard: try control.replugKeyboard()
        case .pointer: try control.replugPointer()
        }
    }

    public var textInput: TextInputSnapshot? {
        try? control.dispatchPending()
        return control.textInput
    }

    public var textInputHistory: [TextInputSnapshot] {
        try? control.dispatchPending()
        return control.textInputHistory
    }
}
