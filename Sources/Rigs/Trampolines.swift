import ScrollwayCWaylandClient
import ScrollwayRigProtocols
import ScrollwayWaylandCore

// Every C callback of the Rigs target, in the style WaylandCore's Trampolines.swift sets out
// (`listenerTable`, `owner`). Owners: WlrootsSeat for its output and input method, a
// `CopyFrame` for each screencopy frame (held by `capture()` until the copy is done).

enum Listeners {
    nonisolated(unsafe) static let output = listenerTable(
        wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, output, flags, width, height, _ in
                if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
                    owner(data, WlrootsSeat.self).output(output, mode: width, height)
                }
            },
            done: { _, _ in },
            scale: { data, output, factor in owner(data, WlrootsSeat.self).output(output, scale: factor) },
            name: { data, output, name in
                owner(data, WlrootsSeat.self).output(output, name: name.map { String(cString: $0) } ?? "")
            },
            description: { _, _, _ in }))

    nonisolated(unsafe) static let inputMethod = listenerTable(
        zwp_input_method_v2_listener(
            activate: { data, _ in owner(data, WlrootsSeat.self).inputMethodActivate(true) },
            deactivate: { data, _ in owner(data, WlrootsSeat.self).inputMethodActivate(false) },
            surrounding_text: { data, _, text, cursor, anchor in
                owner(data, WlrootsSeat.self).inputMethodSurrounding(
                    text: text.map { String(cString: $0) } ?? "", cursor: cursor, anchor: anchor)
            },
            text_change_cause: { data, _, cause in owner(data, WlrootsSeat.self).inputMethodChangeCause(cause) },
            content_type: { data, _, hint, purpose in
                owner(data, WlrootsSeat.self).inputMethodContentType(hint: hint, purpose: purpose)
            },
            done: { data, _ in owner(data, WlrootsSeat.self).inputMethodDone() },
            unavailable: { _, _ in }))

    nonisolated(unsafe) static let copyFrame = listenerTable(
        zwlr_screencopy_frame_v1_listener(
            buffer: { data, _, format, width, height, stride in
                owner(data, CopyFrame.self).offered(format: format, width: width, height: height, stride: stride)
            },
            flags: { data, _, flags in
                owner(data, CopyFrame.self).yInverted =
                    flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT.rawValue != 0
            },
            ready: { data, _, _, _, _ in owner(data, CopyFrame.self).ready = true },
            failed: { data, _ in owner(data, CopyFrame.self).failure = "the compositor could not copy the output" },
            damage: { _, _, _, _, _, _ in },
            linux_dmabuf: { _, _, _, _, _ in },
            buffer_done: { data, _ in owner(data, CopyFrame.self).buffersDone = true }))
}
