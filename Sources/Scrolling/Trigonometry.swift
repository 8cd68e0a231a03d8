import RealModule

// sin and cos through swift-numerics (the scrolling layer imports no C).
func sine(_ x: Double) -> Double { Double.sin(x) }
func cosine(_ x: Double) -> Double { Double.cos(x) }
