/// What the solver refuses, with what it can say about why.
@MainActor
public enum LayoutError: Error, Equatable, @MainActor CustomStringConvertible {
    /// A required constraint cannot hold together with the required constraints already
    /// there; `conflicts` are those it meets in the tableau (UIKit logs the same set).
    case unsatisfiable(LinearConstraint, conflicts: [LinearConstraint])
    case duplicateConstraint(LinearConstraint)
    case unknownConstraint(LinearConstraint)
    /// Edit variables are not required: a suggestion must be able to lose.
    case requiredEditVariable(LayoutVariable)
    case duplicateEditVariable(LayoutVariable)
    case unknownEditVariable(LayoutVariable)
    /// A constant, coefficient or suggested value that is not a finite number: it would make
    /// every later solution NaN.
    case notFinite(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let c, let others):
            let list = others.isEmpty ? "" : "; it conflicts with: " + others.map { "\($0)" }.joined(separator: "; ")
            return "unable to satisfy the required constraint \(c)\(list)"
        case .duplicateConstraint(let c): return "the constraint \(c) is already in the solver"
        case .unknownConstraint(let c): return "the constraint \(c) is not in the solver"
        case .requiredEditVariable(let v): return "the edit variable \(v) must have a priority below required"
        case .duplicateEditVariable(let v): return "\(v) is already an edit variable"
        case .unknownEditVariable(let v): return "\(v) is not an edit variable"
        case .notFinite(let what): return "\(what) is not a finite number"
        }
    }

    /// The same case about the same constraints or variables (by identity).
    nonisolated public static func == (a: LayoutError, b: LayoutError) -> Bool {
        func same(_ x: [AnyObject], _ y: [AnyObject]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { $0 === $1 }
        }
        switch (a, b) {
        case (.unsatisfiable(let c, let cs), .unsatisfiable(let d, let ds)): return same([c] + cs, [d] + ds)
        case (.duplicateConstraint(let c), .duplicateConstraint(let d)),
            (.unknownConstraint(let c), .unknownConstraint(let d)):
            return c === d
        case (.notFinite(let x), .notFinite(let y)): return x == y
        case (.requiredEditVariable(let v), .requiredEditVariable(let w)),
            (.duplicateEditVariable(let v), .duplicateEditVariable(let w)),
            (.unknownEditVariable(let v), .unknownEditVariable(let w)):
            return v === w
        default: return false
        }
    }
}

/// The incremental simplex solver of Cassowary (Badros, Borning and Stuckey, 2001), the method
/// Auto Layout uses: constraints come and go one at a time and each change re-solves from the
/// last solution, so a window resize or a text that wraps costs a few pivots, not a new
/// layout.
///
/// - Every constraint becomes a row `0 = constant + Σ cᵢ·sᵢ` over symbols: the variables, a
///   slack for each inequality (≥ 0), a pair of error symbols for each non-required equality
///   (one for a non-required inequality), weighted in the objective by the priority's
///   strength, and a dummy marking each required equality.
/// - The tableau keeps one basic symbol per row, every row's constant ≥ 0 for the restricted
///   symbols (feasible), and the objective minimised (optimal) by primal pivots; a required
///   constraint that has no symbol to solve for is added with an artificial variable whose
///   minimum must reach zero, or it is unsatisfiable.
/// - Edit variables (a width being dragged, a window being resized) change a row constant and
///   restore feasibility with the dual simplex.
///
/// Choices among equals go to the symbol made first, so the same constraints in the same order
/// give the same solution on every run.
@MainActor
public final class LayoutSolver {
    struct Symbol: Hashable, Comparable {
        enum Kind { case invalid, external, slack, error, dummy }
        let id: Int
        let kind: Kind
        static let invalid = Symbol(id: 0, kind: .invalid)
        var isRestricted: Bool { kind == .slack || kind == .error }
        static func < (a: Symbol, b: Symbol) -> Bool { a.id < b.id }
        // The id alone names a symbol (ids are never reused): hashing the kind too doubled
        // the cost of every cell lookup of a pivot.
        static func == (a: Symbol, b: Symbol) -> Bool { a.id == b.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
        /// The symbol's bit in a row's `mask`.
        var bit: UInt64 { 1 << (id & 63) }
    }

    /// `constant + Σ coefficient·symbol` (a row of the tableau, or the objective).
    ///
    /// The terms are kept in an array sorted by symbol (kiwi's choice, too): rows hold a few
    /// terms, so a binary search finds one without hashing, adding one row into another is a
    /// merge, and iteration is in the order symbols were made, which ties are broken by.
    struct Row {
        struct Cell {
            let symbol: Symbol
            var coefficient: Double
        }
        var constant: Double
        private(set) var cells: [Cell] = []
        /// A bit for each symbol the row may hold (`Symbol.bit`; a symbol that left may leave
        /// its bit). Every pivot asks each row of the tableau whether it holds one symbol, and
        /// most rows hold a few: the mask answers no for most of them without reading their
        /// cells (decisions.md, "The solver's walks, and constants moved in place").
        private(set) var mask: UInt64 = 0

        init(constant: Double = 0) { self.constant = constant }

        /// Whether the row may hold `symbol` (no means it does not).
        @inline(__always) func mayContain(_ symbol: Symbol) -> Bool { mask & symbol.bit != 0 }

        /// The symbols in the order they were made.
        var symbols: [Symbol] { cells.map(\.symbol) }
        var isEmpty: Bool { cells.isEmpty }

        /// Where `symbol` is, or where it would go.
        private func index(of symbol: Symbol) -> (Int, found: Bool) {
            var lo = 0
            var hi = cells.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let id = cells[mid].symbol.id
                if id == symbol.id { return (mid, true) }
                if id < symbol.id { lo = mid + 1 } else { hi = mid }
            }
            return (lo, false)
        }

        func contains(_ symbol: Symbol) -> Bool { mayContain(symbol) && index(of: symbol).found }

        @discardableResult
        mutating func add(_ value: Double) -> Double {
            constant += value
            return constant
        }

        mutating func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
            let (i, found) = index(of: symbol)
            if found {
                let c = cells[i].coefficient + coefficient
                if nearZero(c) { cells.remove(at: i) } else { cells[i].coefficient = c }
            } else if !nearZero(coefficient) {
                cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: i)
                mask |= symbol.bit
            }
        }

        /// Adds `row × coefficient`: the two sorted term lists merged.
        mutating func insert(_ row: Row, _ coefficient: Double = 1) {
            constant += row.constant * coefficient
            if row.cells.isEmpty { return }
            // A few terms into many (a pivot's row into the objective, or into a long row) go in
            // one at a time: a search and a shift of the tail each, where a merge would copy
            // every term. The cost model counts instructions a term: about 20 for a merge's
            // step, 80 for a search plus half a term for the shift. Both ways do the same
            // arithmetic on the same terms.
            let k = row.cells.count
            let n = cells.count
            if k == 1 || k * (80 + n / 2) < 20 * (n + k) {
                for cell in row.cells { insert(cell.symbol, cell.coefficient * coefficient) }
                return
            }
            var merged: [Cell] = []
            merged.reserveCapacity(cells.count + row.cells.count)
            // The mask made anew from what the merge keeps: bits of symbols gone are dropped.
            var kept: UInt64 = 0
            var i = 0
            var j = 0
            while i < cells.count || j < row.cells.count {
                if j == row.cells.count || (i < cells.count && cells[i].symbol.id < row.cells[j].symbol.id) {
                    merged.append(cells[i])
                    kept |= cells[i].symbol.bit
                    i += 1
                } else if i == cells.count || row.cells[j].symbol.id < cells[i].symbol.id {
                    let c = row.cells[j].coefficient * coefficient
                    if !nearZero(c) {
                        merged.append(Cell(symbol: row.cells[j].symbol, coefficient: c))
                        kept |= row.cells[j].symbol.bit
                    }
                    j += 1
                } else {
                    let c = cells[i].coefficient + row.cells[j].coefficient * coefficient
                    if !nearZero(c) {
                        merged.append(Cell(symbol: cells[i].symbol, coefficient: c))
                        kept |= cells[i].symbol.bit
                    }
                    i += 1
                    j += 1
                }
            }
            cells = merged
            mask = kept
        }

        mutating func remove(_ symbol: Symbol) {
            guard mayContain(symbol) else { return }
            let (i, found) = index(of: symbol)
            if found { cells.remove(at: i) }
        }

        mutating func reverseSign() {
            constant = -constant
            for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
        }

        /// Solves `0 = row` for `symbol`: the row becomes `symbol = …` (symbol left out).
        mutating func solve(for symbol: Symbol) {
            let (at, found) = index(of: symbol)
            precondition(found, "solving a row for a symbol it does not hold")
            let k = -1 / cells.remove(at: at).coefficient
            constant *= k
            for i in cells.indices { cells[i].coefficient *= k }
        }

        /// The row is `lhs = …`; it becomes `rhs = …`.
        mutating func solve(for lhs: Symbol, _ rhs: Symbol) {
            insert(lhs, -1)
            solve(for: rhs)
        }

        func coefficient(_ symbol: Symbol) -> Double {
            guard mayContain(symbol) else { return 0 }
            let (i, found) = index(of: symbol)
            return found ? cells[i].coefficient : 0
        }

        /// Each symbol given its new id (`renumberSymbols`, which keeps their order, so the
        /// terms stay sorted); the mask made anew.
        mutating func renumber(_ newID: [Int]) {
            var kept: UInt64 = 0
            for i in cells.indices {
                let s = cells[i].symbol
                let t = Symbol(id: newID[s.id], kind: s.kind)
                cells[i] = Cell(symbol: t, coefficient: cells[i].coefficient)
                kept |= t.bit
            }
            mask = kept
        }

        /// Puts `row` (the value of `symbol`) in place of `symbol`.
        mutating func substitute(_ symbol: Symbol, _ row: Row) {
            guard mayContain(symbol) else { return }
            let (i, found) = index(of: symbol)
            guard found else { return }
            let c = cells.remove(at: i).coefficient
            insert(row, c)
        }
    }

    struct Tag {
        var marker = Symbol.invalid
        var other = Symbol.invalid
    }

    /// The tableau's rows, each under its basic symbol. Every pivot asks every row whether it
    /// holds the entering symbol, so the rows lie in one array walked in place; a row is found
    /// by its symbol through a table indexed by the symbol's id (ids are small and dense). The
    /// order of the rows is not a tie-breaker anywhere: removing one moves the last into its
    /// place.
    ///
    /// The rows are read in place through `first(where:)`, `contains(where:)` and `forEach`,
    /// not as a sequence: a sequence's iterator hands out copies, a retain and a release of each
    /// row's cells, which a scan of every row after each moved constant paid for every row.
    struct Tableau {
        private(set) var basics: [Symbol] = []
        private(set) var rows: [Row] = []
        /// For each symbol id, the index of its row, or -1.
        private var slots: [Int] = []

        var count: Int { rows.count }

        private func slot(of s: Symbol) -> Int? {
            guard s.id < slots.count else { return nil }
            let i = slots[s.id]
            return i < 0 ? nil : i
        }

        subscript(s: Symbol) -> Row? {
            get { slot(of: s).map { rows[$0] } }
            set {
                guard let row = newValue else {
                    removeValue(forKey: s)
                    return
                }
                if let i = slot(of: s) {
                    rows[i] = row
                    return
                }
                if s.id >= slots.count {
                    let grown = Swift.max(s.id + 1, 2 * slots.count)
                    slots.append(contentsOf: repeatElement(-1, count: grown - slots.count))
                }
                slots[s.id] = rows.count
                rows.append(row)
                basics.append(s)
            }
        }

        @discardableResult
        mutating func removeValue(forKey s: Symbol) -> Row? {
            guard let i = slot(of: s) else { return nil }
            let last = rows.count - 1
            if i != last {
                rows.swapAt(i, last)
                basics.swapAt(i, last)
                slots[basics[i].id] = i
            }
            slots[s.id] = -1
            basics.removeLast()
            return rows.removeLast()
        }

        /// Visits every row in place.
        mutating func update(_ body: (Symbol, inout Row) -> Void) {
            for i in 0..<rows.count { body(basics[i], &rows[i]) }
        }

        /// Whether `s` is basic (has a row).
        func hasRow(_ s: Symbol) -> Bool { slot(of: s) != nil }

        /// The constant of `s`'s row (its value), nil when `s` is not basic.
        func constant(of s: Symbol) -> Double? { slot(of: s).map { rows[$0].constant } }

        /// Adds `amount` to the constant of `s`'s row, in place, and returns the new constant;
        /// nil, changing nothing, when `s` is not basic.
        mutating func addToConstant(of s: Symbol, _ amount: Double) -> Double? {
            guard let i = slot(of: s) else { return nil }
            return rows[i].add(amount)
        }

        /// The first row, in the tableau's order, that `test` picks, with its basic symbol.
        func first(where test: (Symbol, Row) -> Bool) -> (Symbol, Row)? {
            for i in rows.indices where test(basics[i], rows[i]) { return (basics[i], rows[i]) }
            return nil
        }

        /// Whether `test` picks a row.
        func contains(where test: (Symbol, Row) -> Bool) -> Bool {
            for i in rows.indices where test(basics[i], rows[i]) { return true }
            return false
        }

        /// Visits every row, in the tableau's order.
        func forEach(_ body: (Symbol, Row) -> Void) {
            for i in rows.indices { body(basics[i], rows[i]) }
        }

        /// Every symbol given its new id, the rows in the same order; the table of slots as
        /// long as the new ids need.
        mutating func renumber(_ newID: [Int], count: Int) {
            slots = Array(repeating: -1, count: count + 1)
            for i in rows.indices {
                let b = basics[i]
                basics[i] = Symbol(id: newID[b.id], kind: b.kind)
                slots[basics[i].id] = i
                rows[i].renumber(newID)
            }
        }

        /// The ids of the symbols the rows hold, basic or not.
        func symbolIDs(into ids: inout [Int]) {
            for i in rows.indices {
                ids.append(basics[i].id)
                for cell in rows[i].cells { ids.append(cell.symbol.id) }
            }
        }
    }

    private struct Edit {
        let variable: LayoutVariable
        let tag: Tag
        let constraint: LinearConstraint
        var constant: Double
    }

    private var constraints: [ObjectIdentifier: (constraint: LinearConstraint, tag: Tag)] = [:]
    /// The tableau: each basic symbol's row. Its accesses are not checked for exclusivity at run
    /// time: the simplex's loops read and write it at every step, where the checks were a good
    /// part of a form's layout (decisions.md, "The test loop"), and the solver belongs to one
    /// actor.
    @exclusivity(unchecked) private var rows = Tableau()
    /// Each variable a constraint names, its symbol, and how many of the solver's constraints
    /// name it: one that none names any more leaves (`releaseVariables`), so that a window
    /// whose views come and go (a feed's cells, recycled) keeps only its live variables, and
    /// `updateVariables` writes only those.
    private var variables: [ObjectIdentifier: (variable: LayoutVariable, symbol: Symbol, uses: Int)] = [:]
    private var edits: [ObjectIdentifier: Edit] = [:]
    /// The edit variables' constraints, to tell them from the app's at once.
    private var editConstraints: Set<ObjectIdentifier> = []
    private var infeasible: [Symbol] = []
    private var objective = Row()
    private var artificial: Row?
    private var lastID = 0
    /// How many ids beyond twice the symbols in use may be made before they are numbered anew
    /// (`compactSymbolsIfSparse`); a test makes it negative to renumber after every change.
    var symbolSlack = 4096
    /// How many times the symbols were numbered anew.
    private(set) var renumberings = 0

    public init() {}

    // MARK: Constraints

    /// Adds a constraint and re-solves. A required one that cannot hold is refused, naming what
    /// it conflicts with, and leaves the solver as it was.
    public func add(_ c: LinearConstraint) throws(LayoutError) {
        let key = ObjectIdentifier(c)
        guard constraints[key] == nil else { throw .duplicateConstraint(c) }
        guard c.expression.constant.isFinite, c.expression.terms.allSatisfy({ $0.coefficient.isFinite }) else {
            throw .notFinite("the constraint \(c)")
        }
        var tag = Tag()
        var row = makeRow(for: c, tag: &tag)
        var subject = chooseSubject(row, tag)
        if subject == .invalid, row.cells.allSatisfy({ $0.symbol.kind == .dummy }) {
            guard nearZero(row.constant) else {
                forgetUnused(c)
                throw .unsatisfiable(c, conflicts: owners(of: Set(row.symbols)))
            }
            subject = tag.marker
        }
        if subject == .invalid {
            // The artificial variable's pivots would leave a refused row behind: keep the
            // tableau as it was, to put back if the constraint cannot hold.
            let before = (rows, objective, infeasible, variables)
            if let conflicts = addWithArtificialVariable(row) {
                (rows, objective, infeasible, variables) = before
                throw .unsatisfiable(c, conflicts: conflicts)
            }
        } else {
            row.solve(for: subject)
            substitute(subject, row)
            rows[subject] = row
        }
        constraints[key] = (c, tag)
        retainVariables(of: c)
        optimize(.objective)
        compactSymbolsIfSparse()
    }

    /// Removes a constraint and re-solves.
    public func remove(_ c: LinearConstraint) throws(LayoutError) {
        guard let (_, tag) = constraints.removeValue(forKey: ObjectIdentifier(c)) else { throw .unknownConstraint(c) }
        // Its errors leave the objective.
        for s in [tag.marker, tag.other] where s.kind == .error {
            if let row = rows[s] {
                objective.insert(row, -c.priority.strength)
            } else {
                objective.insert(s, -c.priority.strength)
            }
        }
        // Its marker leaves the basis, and its row goes.
        if rows.removeValue(forKey: tag.marker) == nil {
            let leaving = markerLeavingSymbol(tag.marker)
            var row = rows.removeValue(forKey: leaving)!
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, row)
        }
        optimize(.objective)
        releaseVariables(of: c)
        compactSymbolsIfSparse()
    }

    public func contains(_ c: LinearConstraint) -> Bool { constraints[ObjectIdentifier(c)] != nil }

    /// The variables the solver's constraints name (each once, however many name it).
    public var variableCount: Int { variables.count }

    /// Gives `c`'s right-hand side the constant `value` and re-solves from the last solution
    /// (a frame set by hand that moved: `view.width == 320` becoming `== 300`; an intrinsic
    /// size that changed; a constraint's constant animated).
    ///
    /// Any constraint's row was made as `expr + k·m + … = 0` with its marker `m` (a dummy, a
    /// slack or an error symbol) at coefficient `k` (`markerCoefficient`). The new constant
    /// moves `expr` by `−δ`, which the old identities hold with `m` read as `m' − δ/k`: every
    /// row `… + b·m` moves by `−b·δ/k` and `m'` takes `m`'s place, at the same value when `m`
    /// is not basic (zero) and `δ/k` above it when it is. Then, as for a suggestion, the dual
    /// simplex restores feasibility (the objective's coefficients did not change, so the basis
    /// stays optimal): a few pivots instead of taking the constraint out and putting it back.
    ///
    /// A basic dummy means the equality repeats others, which then say otherwise: it is refused
    /// as unsatisfiable, the solver unchanged. So is a required constraint that the others do
    /// not let move that far.
    public func updateConstant(of c: LinearConstraint, to value: Double) throws(LayoutError) {
        try updateConstants([(c, value)])
    }

    /// Moves several constraints' constants at once (`updateConstant`), then restores
    /// feasibility once: a window resized with a dozen labels wrapping anew, or the two
    /// constants that hold a size to its intrinsic value, cost one dual simplex, not one each.
    /// If any cannot move, none does: the error names the first in the way.
    public func updateConstants(_ changes: [(LinearConstraint, Double)]) throws(LayoutError) {
        var moves: [(c: LinearConstraint, marker: Symbol, k: Double, old: Double, delta: Double)] = []
        moves.reserveCapacity(changes.count)
        for (c, value) in changes {
            guard let (_, tag) = constraints[ObjectIdentifier(c)] else { throw .unknownConstraint(c) }
            guard value.isFinite else { throw .notFinite("the constant \(value) for \(c)") }
            let delta = value - c.rhs.constant
            guard delta != 0 else { continue }
            let marker = tag.marker
            if marker.kind == .dummy {
                if let row = rows[marker] {
                    guard nearZero(delta) else {
                        throw .unsatisfiable(c, conflicts: owners(of: Set(row.symbols)))
                    }
                    moves.append((c, marker, 0, c.rhs.constant, delta))
                    continue
                }
                // An equality that repeats others keeps a row of dummies; one that mentions
                // this marker would take the moved value and stop holding: the others say
                // otherwise.
                if let repeated = rows.first(where: { s, row in s.kind == .dummy && row.coefficient(marker) != 0 }) {
                    throw .unsatisfiable(
                        c, conflicts: owners(of: Set(repeated.1.symbols).union([repeated.0])).filter { $0 !== c })
                }
            }
            moves.append((c, marker, markerCoefficient(c), c.rhs.constant, delta))
        }
        guard !moves.isEmpty else { return }
        // (Shifts move constants only: the checks above hold for every move in the batch.)
        for m in moves {
            m.c.setRightConstant(m.c.rhs.constant + m.delta)
            // A basic dummy's move is a rounding (k 0): only the constant is written.
            if m.k != 0 { moveMarker(m.marker, by: -m.delta / m.k) }
        }
        dualOptimize()
        // A row the dual simplex could not bring back is a required constraint in the way.
        if let stuck = rows.first(where: { s, row in
            s.isRestricted && row.constant < 0 && !nearZero(row.constant)
        }) {
            let inTheWay = owners(of: Set(stuck.1.symbols).union([stuck.0]))
            // Put back by moving the constants back, the same way in whatever basis the pivots
            // left: the dual simplex returns to an optimum of the old constraints (the old
            // solution unless the optimum is not unique). A copy of the tableau kept for this
            // cost a resize more than the edit.
            for m in moves.reversed() {
                m.c.setRightConstant(m.old)
                if m.k != 0 { moveMarker(m.marker, by: m.delta / m.k) }
            }
            dualOptimize()
            let moved = moves.first { m in inTheWay.contains { $0 === m.c } }?.c ?? moves[0].c
            throw .unsatisfiable(moved, conflicts: inTheWay.filter { $0 !== moved })
        }
    }

    /// `m`'s coefficient in the row `makeRow` made for `c`, before any change of sign.
    private func markerCoefficient(_ c: LinearConstraint) -> Double {
        switch c.relation {
        case .lessOrEqual: return 1
        case .greaterOrEqual: return -1
        case .equal: return c.priority.isRequired ? 1 : -1
        }
    }

    /// Reads marker `m` as `m' + amount` (a constraint's constant moved behind it): a basic
    /// `m`'s row gives `m'` its value less `amount`; otherwise every row and the objective move
    /// by `amount` × their coefficient of `m`. The rows this makes negative are left to the
    /// dual simplex.
    private func moveMarker(_ m: Symbol, by amount: Double) {
        if let constant = rows.addToConstant(of: m, -amount) {
            if constant < 0 { infeasible.append(m) }
        } else {
            shiftRows(holding: m, by: amount)
            objective.add(objective.coefficient(m) * amount)
        }
    }

    /// Every row holding `symbol` moves by `amount` × its coefficient (a constant changed
    /// behind a symbol that is not basic); the restricted rows this makes negative become
    /// infeasible, in symbol order.
    private func shiftRows(holding symbol: Symbol, by amount: Double) {
        var negative: [Symbol] = []
        updateRows { s, row in
            let k = row.coefficient(symbol)
            guard k != 0 else { return }
            if row.add(amount * k) < 0, s.kind != .external { negative.append(s) }
        }
        infeasible += negative.sorted()
    }

    /// Visits every row in place.
    private func updateRows(_ body: (Symbol, inout Row) -> Void) { rows.update(body) }

    // MARK: Edit variables

    /// Makes `v` an edit variable at `priority` (below required): `suggest` then moves it.
    public func addEditVariable(_ v: LayoutVariable, priority: LayoutPriority) throws(LayoutError) {
        guard edits[ObjectIdentifier(v)] == nil else { throw .duplicateEditVariable(v) }
        guard !priority.isRequired else { throw .requiredEditVariable(v) }
        let c = LinearConstraint(LinearExpression(v), .equal, LinearExpression(), priority: priority)
        try add(c)
        edits[ObjectIdentifier(v)] = Edit(
            variable: v, tag: constraints[ObjectIdentifier(c)]!.tag, constraint: c, constant: 0)
        editConstraints.insert(ObjectIdentifier(c))
    }

    public func removeEditVariable(_ v: LayoutVariable) throws(LayoutError) {
        guard let edit = edits.removeValue(forKey: ObjectIdentifier(v)) else { throw .unknownEditVariable(v) }
        editConstraints.remove(ObjectIdentifier(edit.constraint))
        try remove(edit.constraint)
    }

    /// Asks for `v` to be `value`, as strongly as its edit priority; re-solves with the dual
    /// simplex from the last solution (a few pivots for a drag or a resize step).
    public func suggest(_ v: LayoutVariable, _ value: Double) throws(LayoutError) {
        guard var edit = edits[ObjectIdentifier(v)] else { throw .unknownEditVariable(v) }
        guard value.isFinite else { throw .notFinite("the value suggested for \(v), \(value)") }
        let delta = value - edit.constant
        edit.constant = value
        edits[ObjectIdentifier(v)] = edit
        let plus = edit.tag.marker
        let minus = edit.tag.other
        if let constant = rows.addToConstant(of: plus, -delta) {
            if constant < 0 { infeasible.append(plus) }
        } else if let constant = rows.addToConstant(of: minus, delta) {
            if constant < 0 { infeasible.append(minus) }
        } else {
            shiftRows(holding: plus, by: delta)
        }
        dualOptimize()
    }

    // MARK: Results

    /// Writes every variable's solved value.
    public func updateVariables() {
        for (_, entry) in variables { entry.variable.value = rows.constant(of: entry.symbol) ?? 0 }
    }

    /// The non-required constraints the solution does not satisfy, in the order they were added
    /// (a diagnostic: a layout that breaks a high-priority constraint is usually a mistake).
    public var brokenConstraints: [LinearConstraint] {
        constraints.values.filter { entry in
            !isEditConstraint(entry.constraint)
                && [entry.tag.marker, entry.tag.other].contains { s in
                    s.kind == .error && !nearZero(rows[s]?.constant ?? 0)
                }
        }
        .sorted { $0.tag.marker < $1.tag.marker }
        .map(\.constraint)
    }

    /// Whether `v`'s value is left open by the constraints (UIKit's `hasAmbiguousLayout`): no
    /// constraint determines it, or its value moves with a symbol that costs nothing to move (a
    /// variable nothing determines, or an inequality's slack that no priority pulls on), so
    /// another solution is as good.
    public func isAmbiguous(_ v: LayoutVariable) -> Bool {
        guard let symbol = variables[ObjectIdentifier(v)]?.symbol else { return true }
        guard let row = rows[symbol] else { return true }
        return row.symbols.contains { s in
            s.kind != .dummy && nearZero(objective.coefficient(s)) && canMove(s)
        }
    }

    /// Whether non-basic `s` can leave zero without a restricted row going negative: a row at
    /// zero (a degenerate vertex, as `x ≥ 10` with `x ≤ 10`) that it would push down blocks
    /// that direction; a restricted symbol moves only up, a variable either way.
    private func canMove(_ s: Symbol) -> Bool {
        func free(_ direction: Double) -> Bool {
            !rows.contains { basic, row in
                basic.kind != .external && nearZero(row.constant) && row.coefficient(s) * direction < 0
            }
        }
        return s.kind == .external ? free(1) || free(-1) : free(1)
    }

    /// The tableau as text (a debugging aid: each basic symbol's row, then the objective).
    public var tableauDescription: String {
        func name(_ s: Symbol) -> String {
            if let v = variables.values.first(where: { $0.symbol == s }) { return v.variable.name }
            return "\(s.kind)\(s.id)"
        }
        func text(_ r: Row) -> String {
            ([fmt(r.constant)] + r.symbols.map { "\(fmt(r.coefficient($0)))·\(name($0))" }).joined(separator: " + ")
        }
        var lines = rows.basics.sorted().map { "\(name($0)) = \(text(rows[$0]!))" }
        lines.append("objective = \(text(objective))")
        return lines.joined(separator: "\n")
    }

    /// The constraints behind edit variables are the solver's own: never reported, never
    /// removed but through `removeEditVariable`.
    private func isEditConstraint(_ c: LinearConstraint) -> Bool { editConstraints.contains(ObjectIdentifier(c)) }

    // MARK: The tableau

    /// The ids made so far: symbols are numbered from 1 in the order they were made.
    var symbolIDsMade: Int { lastID }

    /// Ids only grow, one or two for each constraint added and one for each variable, and the
    /// tableau finds a row through a table indexed by id: a solver whose constraints come and
    /// go for ever (a window whose recycled cells have constraints) would grow that table for
    /// ever. Once the ids made pass twice the symbols that can be in use (the variables' and
    /// the constraints' own, the basic ones) by `symbolSlack`, the symbols in use are numbered
    /// anew: amortized, a constant cost per symbol made.
    private func compactSymbolsIfSparse() {
        let inUse = variables.count + 2 * constraints.count + rows.count
        guard lastID > 2 * inUse + symbolSlack else { return }
        renumberSymbols()
    }

    /// Numbers the symbols in use 1, 2, 3… in the order they were made: every order the
    /// solver reads (the terms of a row, ties broken by the older symbol) stays as it was, so
    /// every pivot, and every solution, is the same bit for bit.
    func renumberSymbols() {
        var ids: [Int] = []
        ids.reserveCapacity(lastID)
        for (_, entry) in variables { ids.append(entry.symbol.id) }
        for (_, entry) in constraints { ids += [entry.tag.marker.id, entry.tag.other.id] }
        for (_, edit) in edits { ids += [edit.tag.marker.id, edit.tag.other.id] }
        rows.symbolIDs(into: &ids)
        for row in [objective] + (artificial.map { [$0] } ?? []) { ids += row.cells.map(\.symbol.id) }
        ids += infeasible.map(\.id)
        var newID = Array(repeating: 0, count: lastID + 1)
        var count = 0
        for id in Set(ids).sorted() where id != 0 {
            count += 1
            newID[id] = count
        }
        func renumbered(_ s: Symbol) -> Symbol { s.id == 0 ? s : Symbol(id: newID[s.id], kind: s.kind) }
        func renumbered(_ tag: Tag) -> Tag { Tag(marker: renumbered(tag.marker), other: renumbered(tag.other)) }
        for (key, entry) in variables { variables[key] = (entry.variable, renumbered(entry.symbol), entry.uses) }
        for (key, entry) in constraints { constraints[key] = (entry.constraint, renumbered(entry.tag)) }
        for (key, edit) in edits {
            edits[key] = Edit(
                variable: edit.variable, tag: renumbered(edit.tag), constraint: edit.constraint, constant: edit.constant
            )
        }
        rows.renumber(newID, count: count)
        objective.renumber(newID)
        artificial?.renumber(newID)
        infeasible = infeasible.map(renumbered)
        lastID = count
        renumberings += 1
    }

    private func newSymbol(_ kind: Symbol.Kind) -> Symbol {
        lastID += 1
        return Symbol(id: lastID, kind: kind)
    }

    private func symbol(for v: LayoutVariable) -> Symbol {
        if let s = variables[ObjectIdentifier(v)]?.symbol { return s }
        let s = newSymbol(.external)
        variables[ObjectIdentifier(v)] = (v, s, 0)
        return s
    }

    /// `c`, just added, names its variables once more (a variable named twice, twice).
    private func retainVariables(of c: LinearConstraint) {
        for term in c.expression.terms where !nearZero(term.coefficient) {
            variables[ObjectIdentifier(term.variable)]?.uses += 1
        }
    }

    /// `c`, just removed, names its variables no more; those no constraint names leave.
    private func releaseVariables(of c: LinearConstraint) {
        for term in c.expression.terms where !nearZero(term.coefficient) {
            variables[ObjectIdentifier(term.variable)]?.uses -= 1
        }
        forgetUnused(c)
    }

    /// Of `c`'s variables, those no constraint names leave the solver. The tableau no longer
    /// holds their symbols: the rows are the remaining constraints, in which they do not
    /// appear (the removal pivoted the last constraint naming one out with its marker). One
    /// the rows still hold, at a coefficient rounding left, stays, rather than leave a symbol
    /// no variable reads.
    private func forgetUnused(_ c: LinearConstraint) {
        for term in c.expression.terms {
            let key = ObjectIdentifier(term.variable)
            guard let entry = variables[key], entry.uses <= 0, !isInTableau(entry.symbol) else { continue }
            variables[key] = nil
        }
    }

    /// Whether `s` is basic, or in a row or the objective.
    private func isInTableau(_ s: Symbol) -> Bool {
        rows.hasRow(s) || objective.contains(s) || rows.contains { _, row in row.contains(s) }
    }

    /// The constraint's row over the current basis, with its slack, error or dummy symbols.
    private func makeRow(for c: LinearConstraint, tag: inout Tag) -> Row {
        var row = Row(constant: c.expression.constant)
        for term in c.expression.terms where !nearZero(term.coefficient) {
            let s = symbol(for: term.variable)
            if let basic = rows[s] { row.insert(basic, term.coefficient) } else { row.insert(s, term.coefficient) }
        }
        let strength = c.priority.strength
        switch c.relation {
        case .lessOrEqual, .greaterOrEqual:
            let k = c.relation == .lessOrEqual ? 1.0 : -1.0
            let slack = newSymbol(.slack)
            tag.marker = slack
            row.insert(slack, k)
            if !c.priority.isRequired {
                let error = newSymbol(.error)
                tag.other = error
                row.insert(error, -k)
                objective.insert(error, strength)
            }
        case .equal:
            if c.priority.isRequired {
                let dummy = newSymbol(.dummy)
                tag.marker = dummy
                row.insert(dummy)
            } else {
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength)
                objective.insert(minus, strength)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return row
    }

    /// The symbol to solve a new row for: a variable if it has one, else its slack or error
    /// symbol when that can enter with a negative coefficient (keeping the row feasible).
    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol {
        if let s = row.symbols.first(where: { $0.kind == .external }) { return s }
        for s in [tag.marker, tag.other] where s.isRestricted && row.coefficient(s) < 0 { return s }
        return .invalid
    }

    /// Adds a row no symbol can be solved for: an artificial variable takes it, and must reach
    /// zero when minimised. Returns nil on success, or the constraints in the way.
    private func addWithArtificialVariable(_ row: Row) -> [LinearConstraint]? {
        let art = newSymbol(.slack)
        rows[art] = row
        artificial = row
        optimize(.artificial)
        let reached = nearZero(artificial!.constant)
        // Who is in the way is only worked out for a refusal (rare): a pass over every
        // constraint for each one added was most of a resized form's layout.
        let inTheWay = Set(artificial!.symbols)
        artificial = nil
        if var r = rows.removeValue(forKey: art) {
            if !r.isEmpty {
                // It is still basic: pivot it out, on any symbol that is not a dummy.
                guard
                    let entering = r.symbols.first(where: { $0.kind == .slack || $0.kind == .error })
                        ?? r.symbols.first(where: { $0.kind == .external })
                else {
                    return owners(of: inTheWay)
                }
                r.solve(for: art, entering)
                substitute(entering, r)
                rows[entering] = r
            }
        }
        updateRows { _, row in row.remove(art) }
        objective.remove(art)
        return reached ? nil : owners(of: inTheWay)
    }

    /// The constraints whose markers or errors are among `symbols`.
    private func owners(of symbols: Set<Symbol>) -> [LinearConstraint] {
        constraints.values.filter {
            !isEditConstraint($0.constraint) && (symbols.contains($0.tag.marker) || symbols.contains($0.tag.other))
        }
        .sorted { $0.tag.marker < $1.tag.marker }.map(\.constraint)
    }

    /// Puts `row` in place of `symbol` in every row and the objectives; rows of restricted
    /// symbols that turn negative are infeasible.
    private func substitute(_ symbol: Symbol, _ row: Row) {
        // In the tableau's order, which is cheap; only the rows made infeasible are put in symbol
        // order (sorting every row's key for every pivot was most of a form's layout).
        var negative: [Symbol] = []
        updateRows { s, r in
            r.substitute(symbol, row)
            if s.kind != .external, r.constant < 0 { negative.append(s) }
        }
        infeasible += negative.sorted()
        objective.substitute(symbol, row)
        artificial?.substitute(symbol, row)
    }

    /// Which row a primal simplex minimises.
    private enum Goal { case objective, artificial }

    /// Primal simplex on the objective or the artificial row: pivots while a non-dummy symbol
    /// with a negative coefficient can enter. (The goal is read afresh after each pivot:
    /// `substitute` rewrites both.)
    private func optimize(_ which: Goal) {
        while true {
            let goal = which == .objective ? objective : artificial!
            // The first symbol made (the least id) that lowers the goal.
            var entering = Symbol.invalid
            // Cells are in symbol order: the first that qualifies is the least.
            for cell in goal.cells where cell.symbol.kind != .dummy && cell.coefficient < 0 {
                entering = cell.symbol
                break
            }
            guard entering != .invalid else { return }
            // The row that limits it first (the least ratio, ties to the least id), among
            // restricted basic symbols.
            var leaving = Symbol.invalid
            var ratio = Double.greatestFiniteMagnitude
            for i in 0..<rows.count where rows.basics[i].kind != .external {
                let s = rows.basics[i]
                let c = rows.rows[i].coefficient(entering)
                guard c < 0 else { continue }
                let r = -rows.rows[i].constant / c
                if r < ratio || (r == ratio && s < leaving) {
                    ratio = r
                    leaving = s
                }
            }
            // With non-negative error weights the objective is bounded: a symbol no row limits
            // has a negative coefficient only by rounding, and the solution is optimal as it is.
            guard leaving != .invalid else { return }
            var row = rows.removeValue(forKey: leaving)!
            row.solve(for: leaving, entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    /// Dual simplex: restores feasibility of the rows an edit made negative, keeping the
    /// objective optimal.
    private func dualOptimize() {
        while let leaving = infeasible.popLast() {
            guard var row = rows[leaving], row.constant < 0, !nearZero(row.constant) else { continue }
            var entering = Symbol.invalid
            var ratio = Double.greatestFiniteMagnitude
            for cell in row.cells where cell.symbol.kind != .dummy && cell.coefficient > 0 {
                let (s, c) = (cell.symbol, cell.coefficient)
                let r = objective.coefficient(s) / c
                if r < ratio || (r == ratio && s < entering) {
                    ratio = r
                    entering = s
                }
            }
            // No symbol can restore this row: only rounding can bring that about (edits only
            // move constants of rows that were feasible together); leave it.
            guard entering != .invalid else { continue }
            rows[leaving] = nil
            row.solve(for: leaving, entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    /// The row to pivot a marker (not basic) into the basis with, when its constraint goes.
    ///
    /// A row whose basic symbol is a dummy says that a required equality repeats others (it
    /// was added when they implied it); it holds only dummies, at zero. If the marker is in
    /// one, that row is the one to take: the marker is then replaced by dummies alone, and the
    /// repeated equality carries on in its place. Taking any other row would put the marker's
    /// value into the dummy's row, and the equality it stands for would no longer hold.
    private func markerLeavingSymbol(_ marker: Symbol) -> Symbol {
        // Ties go to the symbol made first (the last for an unrestricted one), whatever order
        // the rows are kept in.
        var repeated = Symbol.invalid
        var r1 = Double.greatestFiniteMagnitude
        var r2 = Double.greatestFiniteMagnitude
        var first = Symbol.invalid
        var second = Symbol.invalid
        var third = Symbol.invalid
        rows.forEach { s, row in
            let c = row.coefficient(marker)
            guard c != 0 else { return }
            if s.kind == .dummy, repeated == .invalid || s < repeated { repeated = s }
            if s.kind == .external {
                if third == .invalid || third < s { third = s }
            } else if c < 0 {
                let r = -row.constant / c
                if r < r1 || (r == r1 && s < first) {
                    r1 = r
                    first = s
                }
            } else {
                let r = row.constant / c
                if r < r2 || (r == r2 && s < second) {
                    r2 = r
                    second = s
                }
            }
        }
        if repeated != .invalid { return repeated }
        if first != .invalid { return first }
        if second != .invalid { return second }
        return third
    }
}

/// Coefficients this small are rounding left over from pivots.
func nearZero(_ v: Double) -> Bool { abs(v) < 1e-8 }
