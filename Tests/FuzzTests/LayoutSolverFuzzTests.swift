import ScrollwayGeometry
import ScrollwayTestSupport
import Testing

@testable import ScrollwayLayout

/// Random adds, removals and edits of constraints that a hidden solution satisfies (required
/// ones only, or with wishes at random priorities): none is refused, and after every step every
/// required constraint in the solver holds.
@MainActor
@Suite struct LayoutSolverFuzzTests {
    func residual(_ c: LinearConstraint) -> Double {
        c.expression.terms.reduce(c.expression.constant) { $0 + $1.coefficient * $1.variable.value }
    }

    @Test(arguments: [2026, 7, 99, 12_345] as [UInt64], [true, false])
    func requiredConstraintsAlwaysHold(seed: UInt64, onlyRequired: Bool) throws {
        var random = SeededRandom(state: seed)
        let vars = (0..<10).map { LayoutVariable("x\($0)") }
        let hidden = vars.map { _ in random.unit(-500, 500) }
        let solver = LayoutSolver()
        var active: [LinearConstraint] = []
        try solver.addEditVariable(vars[0], priority: .defaultHigh)
        for step in 0..<1000 {
            switch random.int(10) {
            case 0..<4:
                // A required relation the hidden solution satisfies.
                let i = random.int(10)
                let j = random.int(10)
                let k = random.unit(0.5, 2).rounded()
                let expr = LinearExpression(vars[i]) - LinearExpression(vars[j]) * k
                let value = hidden[i] - hidden[j] * k
                let c: LinearConstraint
                switch random.int(3) {
                case 0: c = expr == value
                case 1: c = expr <= value + random.unit(0, 50)
                default: c = expr >= value - random.unit(0, 50)
                }
                try solver.add(c)
                active.append(c)
            case 4..<6 where onlyRequired:
                try solver.suggest(vars[0], random.unit(-1000, 1000))
            case 4..<6:
                // A wish at some priority, true or not.
                let c = (vars[random.int(10)] == random.unit(-800, 800)) ~ LayoutPriority(random.unit(1, 999))
                try solver.add(c)
                active.append(c)
            case 6..<8 where !active.isEmpty:
                let c = active.remove(at: random.int(active.count))
                try solver.remove(c)
            default:
                try solver.suggest(vars[0], random.unit(-1000, 1000))
            }
            solver.updateVariables()
            for c in active where c.priority.isRequired {
                let r = residual(c)
                switch c.relation {
                case .equal: #expect(abs(r) < 1e-6, "step \(step): \(c) off by \(r)")
                case .lessOrEqual: #expect(r < 1e-6, "step \(step): \(c) off by \(r)")
                case .greaterOrEqual: #expect(r > -1e-6, "step \(step): \(c) off by \(r)")
                }
            }
            #expect(vars.allSatisfy { $0.value.isFinite })
            // The solver keeps the variables its constraints name, no more (the edit
            // variable's own constraint names `x0`).
            let named = Set(active.flatMap { $0.expression.terms.map { ObjectIdentifier($0.variable) } })
            #expect(solver.variableCount == named.union([ObjectIdentifier(vars[0])]).count, "step \(step)")
        }
    }
}
