import ScrollwayGeometry
import ScrollwayPlot
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayTestSupport
import Testing

/// `plot` on generated traces (issue 36: the probe's plots trapped on numbers the reader let
/// through). Seeded traces of frame and delegate records, as text, with numbers at the limits
/// the reader takes and past them, times that go back, unknown phases, several views and
/// resting ranges, are read and plotted at random sizes and windows: each is drawn at the size
/// asked for, or refused with a message naming the file (and line) or the option, never a trap.
@Suite struct PlotFuzzTests {
    /// Numbers a trace may hold, the reader's limits (±1e12) and just past them included.
    static let numbers: [String] = [
        "0", "-0", "1", "-1", "0.5", "16.667", "1e-300", "5e-324", "-5e-324", "1e12", "-1e12", "999999999999.9",
        "1.0000001e12", "-1.0000001e12", "1e308", "-1e308", "9.3e18", "123456.789", "-98765.4321",
    ]
    static let phases = ["idle", "tracking", "dragging", "decelerating", "bouncing", "animating", "zooming", "flying"]
    static let delegates = [
        "scrollViewDidScroll", "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
        "scrollViewDidEndDecelerating", "scrollViewDidZoom",
    ]

    @Test(arguments: [11, 12, 13, 14])
    func generatedTracesAreDrawnOrRefusedNeverATrap(seed: UInt64) throws {
        var rng = SeededRandom(state: seed)
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        var drawn = 0
        for trial in 0..<FuzzBudget.cases(400) {
            // One trace in four may hold anything; the others only what the reader takes, so
            // that most reach the drawing.
            let hostile = rng.next() % 4 == 0
            let numbers = hostile ? Self.numbers : Self.numbers.filter { abs(Double($0)!) <= 1e12 }
            func number() -> String {
                rng.next() % 3 == 0 ? pick(numbers) : String(rng.unit(-5000, 5000))
            }
            // Sizes are not negative (nor are times) unless the trace is hostile.
            func size() -> String {
                let n = number()
                return hostile || !n.hasPrefix("-") ? n : String(n.dropFirst())
            }
            var lines: [String] = []
            var t = hostile ? rng.unit(-100, 100) : rng.unit(0, 100)
            for frame in 0..<Int(1 + rng.next() % 40) {
                // Mostly forward in time, by frames or by nothing at all; sometimes back, or
                // to a limit.
                switch rng.next() % 10 {
                case 0 where hostile: t = Double(pick(Self.numbers)) ?? t
                case 1 where hostile: t -= rng.unit(0, 50)
                case 2: break
                default: t += rng.unit(0, 40)
                }
                let view = pick(["main", "main", "inner", "m\\u001b[0m"])
                if rng.next() % 5 == 0 {
                    var record = #"{"t": \#(t), "view": "\#(view)", "delegate": "\#(pick(Self.delegates))""#
                    if rng.next() % 2 == 0 { record += #", "velocity": {"x": \#(number()), "y": \#(number())}"# }
                    lines.append(record + "}")
                } else {
                    var record =
                        #"{"t": \#(t), "frame": \#(frame), "view": "\#(view)", "#
                        + #""contentOffset": {"x": \#(number()), "y": \#(number())}, "phase": "\#(pick(hostile ? Self.phases : Array(Self.phases.dropLast())))""#
                    if rng.next() % 2 == 0 {
                        record +=
                            #", "contentSize": {"width": \#(size()), "height": \#(size())}, "#
                            + #""bounds": {"x": 0, "y": 0, "width": \#(size()), "height": \#(size())}, "#
                            + #""adjustedContentInset": {"top": \#(number()), "left": 0, "bottom": \#(number()), "right": 0}"#
                    }
                    lines.append(record + "}")
                }
            }
            let parser = TraceLineParser(file: "fuzz.jsonl")
            let size = Size(width: pick([480.0, 800, 1200, 4096]), height: pick([240.0, 500, 800, 2160]))
            let from = rng.next() % 4 == 0 ? Double(pick(Self.numbers)) : nil
            let to = rng.next() % 4 == 0 ? Double(pick(Self.numbers)) : nil
            do {
                var number = 0
                let data = try TracePlotData.read(file: "fuzz.jsonl", from: from, to: to) {
                    while number < lines.count {
                        number += 1
                        if let record = try parser.parse(bytes: Array(lines[number - 1].utf8), number: number) {
                            return record
                        }
                    }
                    return nil
                }
                let canvas = try TracePlot(data, size: size, title: "fuzz \(seed).\(trial)").render()
                #expect(
                    canvas.width == Int(clamping: size.width) && canvas.height == Int(clamping: size.height),
                    "seed \(seed) trial \(trial)")
                drawn += 1
            } catch let error as ScriptError {
                #expect("\(error)".hasPrefix("fuzz.jsonl:"), "seed \(seed) trial \(trial): \(error)")
            } catch let error as TracePlotError {
                #expect(!"\(error)".isEmpty, "seed \(seed) trial \(trial)")
            }
        }
        // Most generated traces are drawable: the fuzzer reaches the drawing, not only the reader.
        #expect(drawn > FuzzBudget.cases(400) / 10, "only \(drawn) drawn")
    }
}
