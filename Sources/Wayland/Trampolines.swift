import Glibc
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols

// Every C callback of the Wayland target, in the style WaylandCore's Trampolines.swift sets out
// (`listenerTable`, `owner`). Owners: WaylandConnection for the seat and outputs (the registry is
// WaylandCore's); WaylandPointer, WaylandPointerGestures, WaylandTouch and WaylandKeyboard for
// their devices, WaylandTextInput for the input method, WaylandClipboard for the data device, its
// offers and sources; WaylandWindow for the surface, toplevel and frame callbacks; ShmBuffer for
// release.

/// Runs `body` with the owner on the main actor. Wayland calls back only from inside
/// `wl_display_dispatch*`, which the platform runs on the main thread from main-actor code
/// (`WaylandApp.step`), so the callback is already there; this says so to the compiler and
/// traps if it were ever not the case.
@inline(__always) func onOwner<T: AnyObject & Sendable>(
    _ data: UnsafeMutableRawPointer?, _: T.Type, _ body: @MainActor (T) -> Void
) {
    let object = owner(data, T.self)
    MainActor.assumeIsolated { body(object) }
}

/// The same, handing the callback's protocol objects (`OpaquePointer`s, not `Sendable`) to
/// the owner: they belong to this one dispatch on the main thread and go nowhere else.
@inline(__always) func onOwner<T: AnyObject & Sendable, A>(
    _ data: UnsafeMutableRawPointer?, _: T.Type, passing args: A, _ body: @MainActor (T, A) -> Void
) {
    let object = owner(data, T.self)
    nonisolated(unsafe) let args = args
    MainActor.assumeIsolated { body(object, args) }
}

enum Listeners {
    nonisolated(unsafe) static let wmBase = listenerTable(
        xdg_wm_base_listener(
            ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    nonisolated(unsafe) static let seat = listenerTable(
        wl_seat_listener(
            capabilities: { data, _, caps in onOwner(data, WaylandConnection.self) { $0.input.capabilities(caps) } },
            name: { _, _, _ in }))

    nonisolated(unsafe) static let output = listenerTable(
        wl_output_listener(
            geometry: { data, output, _, _, _, _, _, _, _, transform in
                onOwner(data, WaylandConnection.self, passing: output) {
                    $0.outputTransform(output: $1, transform: transform)
                }
            },
            mode: { data, output, flags, width, height, refresh in
                if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
                    onOwner(data, WaylandConnection.self, passing: output) {
                        $0.outputMode(output: $1, width: Int(width), height: Int(height), millihertz: Int(refresh))
                    }
                }
            },
            done: { _, _ in },
            scale: { data, output, factor in
                onOwner(data, WaylandConnection.self, passing: output) {
                    $0.outputScale(output: $1, scale: Int(factor))
                }
            },
            name: { _, _, _ in },
            description: { _, _, _ in }))

    nonisolated(unsafe) static let pointer = listenerTable(
        wl_pointer_listener(
            enter: { data, _, serial, _, x, y in
                onOwner(data, WaylandPointer.self) { $0.enter(serial: serial, x: x, y: y) }
            },
            leave: { data, _, _, _ in onOwner(data, WaylandPointer.self) { $0.leave() } },
            motion: { data, _, time, x, y in
                onOwner(data, WaylandPointer.self) { $0.motion(time: time, x: x, y: y) }
            },
            button: { data, _, serial, time, button, state in
                onOwner(data, WaylandPointer.self) {
                    $0.button(
                        serial: serial, time: time, button: button, state: state)
                }
            },
            axis: { data, _, time, axis, value in
                onOwner(data, WaylandPointer.self) { $0.axis(time: time, axis: axis, value: value) }
            },
            frame: { data, _ in onOwner(data, WaylandPointer.self) { $0.frame() } },
            axis_source: { data, _, source in onOwner(data, WaylandPointer.self) { $0.axisSource(source) } },
            axis_stop: { data, _, time, axis in
                onOwner(data, WaylandPointer.self) { $0.axisStop(time: time, axis: axis) }
            },
            axis_discrete: { data, _, axis, discrete in
                onOwner(data, WaylandPointer.self) {
                    $0.axisDiscrete(
                        axis: axis, value120: Int32(clamping: Int(discrete) * 120))
                }
            },
            axis_value120: { data, _, axis, value in
                onOwner(data, WaylandPointer.self) { $0.axisDiscrete(axis: axis, value120: value) }
            }))

    nonisolated(unsafe) static let touch = listenerTable(
        wl_touch_listener(
            down: { data, _, _, time, surface, id, x, y in
                onOwner(data, WaylandTouch.self) { $0.down(time: time, id: id, x: x, y: y) }
            },
            up: { data, _, _, time, id in onOwner(data, WaylandTouch.self) { $0.up(time: time, id: id) } },
            motion: { data, _, time, id, x, y in
                onOwner(data, WaylandTouch.self) { $0.motion(time: time, id: id, x: x, y: y) }
            },
            frame: { data, _ in onOwner(data, WaylandTouch.self) { $0.frame() } },
            cancel: { data, _ in onOwner(data, WaylandTouch.self) { $0.cancel() } },
            shape: { _, _, _, _, _ in },
            orientation: { _, _, _, _ in }))

    nonisolated(unsafe) static let keyboard = listenerTable(
        wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                onOwner(data, WaylandKeyboard.self) { $0.keymap(format: format, fd: fd, size: size) }
            },
            enter: { data, _, _, _, _ in onOwner(data, WaylandKeyboard.self) { $0.enter() } },
            leave: { data, _, _, _ in onOwner(data, WaylandKeyboard.self) { $0.leave() } },
            key: { data, _, serial, time, key, state in
                onOwner(data, WaylandKeyboard.self) { $0.key(serial: serial, time: time, key: key, state: state) }
            },
            modifiers: { data, _, _, depressed, latched, locked, group in
                onOwner(data, WaylandKeyboard.self) {
                    $0.modifiers(
                        depressed: depressed, latched: latched, locked: locked, group: group)
                }
            },
            repeat_info: { data, _, rate, delay in
                onOwner(data, WaylandKeyboard.self) { $0.repeatInfo(rate: rate, delay: delay) }
            }))

    nonisolated(unsafe) static let presentation = listenerTable(
        wp_presentation_listener(
            clock_id: { data, _, clock in onOwner(data, WaylandConnection.self) { $0.presentationClock = clock } }))

    nonisolated(unsafe) static let presentationFeedback = listenerTable(
        wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, feedback, secHi, secLo, nsec, refresh, _, _, flags in
                let seconds = Double(UInt64(secHi) << 32 | UInt64(secLo)) + Double(nsec) / 1e9
                onOwner(data, WaylandWindow.self, passing: feedback) {
                    $0.presented(feedback: $1, at: seconds, refreshNanoseconds: refresh, flags: flags)
                }
            },
            discarded: { data, feedback in
                onOwner(data, WaylandWindow.self, passing: feedback) {
                    $0.presented(feedback: $1, at: nil, refreshNanoseconds: 0, flags: 0)
                }
            }))

    nonisolated(unsafe) static let pinch = listenerTable(
        zwp_pointer_gesture_pinch_v1_listener(
            begin: { data, _, _, time, _, fingers in
                onOwner(data, WaylandPointerGestures.self) { $0.pinchBegin(time: time, fingers: fingers) }
            },
            update: { data, _, time, dx, dy, scale, _ in
                onOwner(data, WaylandPointerGestures.self) { $0.pinchUpdate(time: time, dx: dx, dy: dy, scale: scale) }
            },
            end: { data, _, _, time, cancelled in
                onOwner(data, WaylandPointerGestures.self) { $0.pinchEnd(time: time, cancelled: cancelled != 0) }
            }))

    nonisolated(unsafe) static let hold = listenerTable(
        zwp_pointer_gesture_hold_v1_listener(
            begin: { data, _, _, time, _, fingers in
                onOwner(data, WaylandPointerGestures.self) { $0.holdBegin(time: time, fingers: fingers) }
            },
            end: { data, _, _, time, cancelled in
                onOwner(data, WaylandPointerGestures.self) { $0.holdEnd(time: time, cancelled: cancelled != 0) }
            }))

    nonisolated(unsafe) static let textInput = listenerTable(
        zwp_text_input_v3_listener(
            enter: { data, _, _ in onOwner(data, WaylandTextInput.self) { $0.enter() } },
            leave: { data, _, _ in onOwner(data, WaylandTextInput.self) { $0.leave() } },
            preedit_string: { data, _, text, begin, end in
                let s = text.map { String(cString: $0) }
                onOwner(data, WaylandTextInput.self) { $0.preedit(s, begin: begin, end: end) }
            },
            commit_string: { data, _, text in
                let s = text.map { String(cString: $0) }
                onOwner(data, WaylandTextInput.self) { $0.commitString(s) }
            },
            delete_surrounding_text: { data, _, before, after in
                onOwner(data, WaylandTextInput.self) { $0.deleteSurrounding(before: before, after: after) }
            },
            done: { data, _, serial in onOwner(data, WaylandTextInput.self) { $0.done(serial: serial) } }))

    nonisolated(unsafe) static let dataDevice = listenerTable(
        wl_data_device_listener(
            data_offer: { data, _, offer in
                onOwner(data, WaylandClipboard.self, passing: offer) { $0.dataOffer($1) }
            },
            enter: { data, _, _, _, _, _, offer in
                onOwner(data, WaylandClipboard.self, passing: offer) { $0.dragEntered($1) }
            },
            leave: { data, _ in onOwner(data, WaylandClipboard.self) { $0.dragLeft() } },
            motion: { _, _, _, _, _ in },
            drop: { _, _ in },
            selection: { data, _, offer in
                onOwner(data, WaylandClipboard.self, passing: offer) { $0.selectionChanged($1) }
            }))

    nonisolated(unsafe) static let dataOffer = listenerTable(
        wl_data_offer_listener(
            offer: { data, offer, type in
                let s = type.map { String(cString: $0) } ?? ""
                onOwner(data, WaylandClipboard.self, passing: offer) { $0.offered($1, type: s) }
            },
            source_actions: { _, _, _ in },
            action: { _, _, _ in }))

    nonisolated(unsafe) static let dataSource = listenerTable(
        wl_data_source_listener(
            target: { _, _, _ in },
            send: { data, source, type, fd in
                let s = type.map { String(cString: $0) } ?? ""
                onOwner(data, WaylandClipboard.self, passing: source) { $0.send($1, type: s, fd: fd) }
            },
            cancelled: { data, source in
                onOwner(data, WaylandClipboard.self, passing: source) { $0.cancelled($1) }
            },
            dnd_drop_performed: { _, _ in },
            dnd_finished: { _, _ in },
            action: { _, _, _ in }))

    nonisolated(unsafe) static let decoration = listenerTable(
        zxdg_toplevel_decoration_v1_listener(
            configure: { data, _, mode in onOwner(data, WaylandWindow.self) { $0.decorationConfigure(mode: mode) } }))

    nonisolated(unsafe) static let fractionalScale = listenerTable(
        wp_fractional_scale_v1_listener(
            preferred_scale: { data, _, scale in
                onOwner(data, WaylandWindow.self) { $0.preferredFractionalScale(scale) }
            }))

    nonisolated(unsafe) static let surface = listenerTable(
        wl_surface_listener(
            enter: { data, _, output in
                onOwner(data, WaylandWindow.self, passing: output) { $0.surfaceEntered($1) }
            },
            leave: { data, _, output in
                onOwner(data, WaylandWindow.self, passing: output) { $0.surfaceLeft($1) }
            }))

    /// The cursor's surface: which outputs it is shown on decides its scale.
    nonisolated(unsafe) static let cursorSurface = listenerTable(
        wl_surface_listener(
            enter: { data, _, output in
                onOwner(data, Cursor.self, passing: output) { $0.surfaceEntered($1) }
            },
            leave: { data, _, output in
                onOwner(data, Cursor.self, passing: output) { $0.surfaceLeft($1) }
            }))

    nonisolated(unsafe) static let xdgSurface = listenerTable(
        xdg_surface_listener(
            configure: { data, surface, serial in
                onOwner(data, WaylandWindow.self) { $0.xdgSurfaceConfigure(serial: serial) }
            })
    )

    nonisolated(unsafe) static let toplevel = listenerTable(
        xdg_toplevel_listener(
            configure: { data, _, width, height, states in
                onOwner(data, WaylandWindow.self, passing: states) {
                    $0.toplevelConfigure(width: Int(width), height: Int(height), states: $1)
                }
            },
            close: { data, _ in onOwner(data, WaylandWindow.self) { $0.closeRequested = true } },
            configure_bounds: { data, _, width, height in
                onOwner(data, WaylandWindow.self) { $0.toplevelBounds(width: Int(width), height: Int(height)) }
            },
            wm_capabilities: { _, _, _ in }))

    nonisolated(unsafe) static let frame = listenerTable(
        wl_callback_listener(
            done: { data, callback, time in
                onOwner(data, WaylandWindow.self, passing: callback) { $0.frameDone(callback: $1, time: time) }
            })
    )

    nonisolated(unsafe) static let buffer = listenerTable(
        wl_buffer_listener(
            release: { data, _ in onOwner(data, ShmBuffer.self) { $0.isBusy = false } }))
}
