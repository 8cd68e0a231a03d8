import Glibc

// Every C callback of the Raster target, in the trampoline style of `ScrollwayWaylandCore`'s
// `Trampolines.swift`, with one difference: a thread's start routine takes its body retained
// (`Unmanaged.passRetained`), since the thread that starts it may return before it runs, and
// releases it once it has run.

enum Listeners {
    /// The start routine of the threads `BackgroundThread.start` makes.
    static let threadStart: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        let body = Unmanaged<BackgroundThread.Body>.fromOpaque(context).takeRetainedValue()
        body.run()
        return nil
    }
}
