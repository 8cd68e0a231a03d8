import Glibc
import ScrollwayCWaylandClient
import ScrollwayWaylandProtocols

// Every C callback of the Wayland target. Each recovers its owner from `data` with `Unmanaged`
// (unretained: the owner outlives its proxies): WaylandConnection for the seat and outputs
// (the registry is WaylandCore's); WaylandPointer, WaylandPointerGestures, WaylandTouch and
// WaylandKeyboard for their devices; WaylandWindow for the surface, toplevel and frame
// callbacks; ShmBuffer for release.
// Listener tables are allocated once on the heap (stable addresses for the process's lifetime;
// `&` or withUnsafePointer on a global struct would hand C a temporary copy) and never mutated.

@inline(__always) func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// A listener table at a stable heap address, for the process's lifetime.
func table<L>(_ listener: L) -> UnsafeMutablePointer<L> {
    let p = UnsafeMutablePointer<L>.allocate(capacity: 1)
    p.initialize(to: listener)
    return p
}

enum Listeners {
    nonisolated(unsafe) static let wmBase = table(
        xdg_wm_base_listener(
            ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    nonisolated(unsafe) static let seat = table(
        wl_seat_listener(
            capabilities: { data, _, caps in owner(data, WaylandConnection.self).input.capabilities(caps) },
            name: { _, _, _ in }))

    nonisolated(unsafe) static let output = table(
        wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, output, flags, _, _, refresh in
                if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
                    owner(data, WaylandConnection.self).outputRefresh(output: output, millihertz: Int(refresh))
                }
            },
            done: { _, _ in },
            scale: { data, output, factor in
                owner(data, WaylandConnection.self).outputScale(output: output, scale: Int(factor))
            },
            name: { _, _, _ in },
            description: { _, _, _ in }))

    nonisolated(unsafe) static let pointer = table(
        wl_pointer_listener(
            enter: { data, _, serial, _, x, y in
                owner(data, WaylandPointer.self).enter(serial: serial, x: x, y: y)
            },
            leave: { data, _, _, _ in owner(data, WaylandPointer.self).leave() },
            motion: { data, _, time, x, y in
                owner(data, WaylandPointer.self).motion(time: time, x: x, y: y)
            },
            button: { data, _, serial, time, button, state in
                owner(data, WaylandPointer.self).button(
                    serial: serial, time: time, button: button, state: state)
            },
            axis: { data, _, time, axis, value in
                owner(data, WaylandPointer.self).axis(time: time, axis: axis, value: value)
            },
            frame: { data, _ in owner(data, WaylandPointer.self).frame() },
            axis_source: { data, _, source in owner(data, WaylandPointer.self).axisSource(source) },
            axis_stop: { data, _, time, axis in
                owner(data, WaylandPointer.self).axisStop(time: time, axis: axis)
            },
            axis_discrete: { data, _, axis, discrete in
                owner(data, WaylandPointer.self).axisDiscrete(
                    axis: axis, value120: Int32(clamping: Int(discrete) * 120))
            },
            axis_value120: { data, _, axis, value in
                owner(data, WaylandPointer.self).axisDiscrete(axis: axis, value120: value)
            }))

    nonisolated(unsafe) static let touch = table(
        wl_touch_listener(
            down: { data, _, _, time, surface, id, x, y in
                owner(data, WaylandTouch.self).down(time: time, id: id, x: x, y: y)
            },
            up: { data, _, _, time, id in owner(data, WaylandTouch.self).up(time: time, id: id) },
            motion: { data, _, time, id, x, y in
                owner(data, WaylandTouch.self).motion(time: time, id: id, x: x, y: y)
            },
            frame: { data, _ in owner(data, WaylandTouch.self).frame() },
            cancel: { data, _ in owner(data, WaylandTouch.self).cancel() },
            shape: { _, _, _, _, _ in },
            orientation: { _, _, _, _ in }))

    nonisolated(unsafe) static let keyboard = table(
        wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                owner(data, WaylandKeyboard.self).keymap(format: format, fd: fd, size: size)
            },
            enter: { data, _, _, _, _ in owner(data, WaylandKeyboard.self).enter() },
            leave: { data, _, _, _ in owner(data, WaylandKeyboard.self).leave() },
            key: { data, _, _, time, key, state in
                owner(data, WaylandKeyboard.self).key(time: time, key: key, state: state)
            },
            modifiers: { data, _, _, depressed, latched, locked, group in
                owner(data, WaylandKeyboard.self).modifiers(
                    depressed: depressed, latched: latched, locked: locked, group: group)
            },
            repeat_info: { data, _, rate, delay in
                owner(data, WaylandKeyboard.self).repeatInfo(rate: rate, delay: delay)
            }))

    nonisolated(unsafe) static let presentation = table(
        wp_presentation_listener(
            clock_id: { data, _, clock in owner(data, WaylandConnection.self).presentationClock = clock }))

    nonisolated(unsafe) static let presentationFeedback = table(
        wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, feedback, secHi, secLo, nsec, refresh, _, _, _ in
                let seconds = Double(UInt64(secHi) << 32 | UInt64(secLo)) + Double(nsec) / 1e9
                owner(data, WaylandWindow.self).presented(feedback: feedback, at: seconds, refreshNanoseconds: refresh)
            },
            discarded: { data, feedback in
                owner(data, WaylandWindow.self).presented(feedback: feedback, at: nil, refreshNanoseconds: 0)
            }))

    nonisolated(unsafe) static let pinch = table(
        zwp_pointer_gesture_pinch_v1_listener(
            begin: { data, _, _, time, _, fingers in
                owner(data, WaylandPointerGestures.self).pinchBegin(time: time, fingers: fingers)
            },
            update: { data, _, time, dx, dy, scale, _ in
                owner(data, WaylandPointerGestures.self).pinchUpdate(time: time, dx: dx, dy: dy, scale: scale)
            },
            end: { data, _, _, time, cancelled in
                owner(data, WaylandPointerGestures.self).pinchEnd(time: time, cancelled: cancelled != 0)
            }))

    nonisolated(unsafe) static let hold = table(
        zwp_pointer_gesture_hold_v1_listener(
            begin: { data, _, _, time, _, fingers in
                owner(data, WaylandPointerGestures.self).holdBegin(time: time, fingers: fingers)
            },
            end: { data, _, _, time, cancelled in
                owner(data, WaylandPointerGestures.self).holdEnd(time: time, cancelled: cancelled != 0)
            }))

    nonisolated(unsafe) static let decoration = table(
        zxdg_toplevel_decoration_v1_listener(
            configure: { data, _, mode in owner(data, WaylandWindow.self).decorationConfigure(mode: mode) }))

    nonisolated(unsafe) static let fractionalScale = table(
        wp_fractional_scale_v1_listener(
            preferred_scale: { data, _, scale in owner(data, WaylandWindow.self).preferredFractionalScale(scale) }))

    nonisolated(unsafe) static let xdgSurface = table(
        xdg_surface_listener(
            configure: { data, surface, serial in owner(data, WaylandWindow.self).xdgSurfaceConfigure(serial: serial) })
    )

    nonisolated(unsafe) static let toplevel = table(
        xdg_toplevel_listener(
            configure: { data, _, width, height, states in
                owner(data, WaylandWindow.self).toplevelConfigure(
                    width: Int(width), height: Int(height), states: states)
            },
            close: { data, _ in owner(data, WaylandWindow.self).closeRequested = true },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))

    nonisolated(unsafe) static let frame = table(
        wl_callback_listener(
            done: { data, callback, time in owner(data, WaylandWindow.self).frameDone(callback: callback, time: time) })
    )

    nonisolated(unsafe) static let buffer = table(
        wl_buffer_listener(
            release: { data, _ in owner(data, ShmBuffer.self).isBusy = false }))
}
