/// Where one frame's time went, phase by phase, in seconds of `Window.phaseClock`: what a
/// profiler says about a frame (which part of the tree costs what), read from the frame itself
/// and cheaply enough to leave on in a benchmark. Each phase is a stretch of the main thread
/// that does not wait, so a monotonic clock's reading is its CPU time (unless the thread is
/// preempted, as any clock but a CPU clock would count).
///
/// `prepareFrameUpdate` fills the first four; the composite fills `plan` and `paint` (added up
/// over the frame's composites); the platform fills `copy`, the rest of its present step.
public struct FramePhases: Sendable, Equatable {
    /// Animations advanced: a motion's offset set, and what views do when their bounds change
    /// (a list gives rows cells, recycles the ones that left, places its headers).
    public var animate = 0.0
    /// From there to the walk: layout passes, frame observers, background work joining.
    public var layout = 0.0
    /// Views drawing their images (a label laying out and rasterizing its text).
    public var draw = 0.0
    /// The walk less the drawing: each visited view's snapshot compared with its last, and the
    /// frame's move and damage worked out.
    public var damage = 0.0
    /// Working out what compositing the damage paints, view by view (`compositeWork`).
    public var plan = 0.0
    /// Painting it: fills, images and text blended into the buffer.
    public var paint = 0.0
    /// The present step's rest: pixels moved or copied in the buffers (a recentring's copy).
    public var copy = 0.0

    public init(
        animate: Double = 0, layout: Double = 0, draw: Double = 0, damage: Double = 0, plan: Double = 0,
        paint: Double = 0, copy: Double = 0
    ) {
        self.animate = animate
        self.layout = layout
        self.draw = draw
        self.damage = damage
        self.plan = plan
        self.paint = paint
        self.copy = copy
    }
}
