import RealModule
import ScrollwayGeometry

/// A value the solver finds (a view's left edge, a width, a content size): a reference, so the
/// same variable can stand in many constraints and be read after `LayoutSolver.updateVariables()`.
/// Not `Equatable`: `==` between variables makes a constraint (`a == b`), as in the anchor API.
@MainActor
public final class LayoutVariable: @MainActor CustomStringConvertible {
    /// For diagnostics: "label.width".
    public let name: String
    /// The solved value (after `updateVariables`).
    public internal(set) var value = 0.0

    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

/// A linear expression: Σ coefficient · variable + constant.
@MainActor
public struct LinearExpression: @MainActor CustomStringConvertible {
    public var terms: [(variable: LayoutVariable, coefficient: Double)]
    public var constant: Double

    public init(_ terms: [(variable: LayoutVariable, coefficient: Double)] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: LayoutVariable) { self.init([(variable, 1)]) }

    public static func + (a: LinearExpression, b: LinearExpression) -> LinearExpression {
        LinearExpression(a.terms + b.terms, constant: a.constant + b.constant)
    }
    public static func - (a: LinearExpression, b: LinearExpression) -> LinearExpression { a + b * -1 }
    public static func * (a: LinearExpression, k: Double) -> LinearExpression {
        LinearExpression(a.terms.map { ($0.variable, $0.coefficient * k) }, constant: a.constant * k)
    }
    public static func + (a: LinearExpression, k: Double) -> LinearExpression {
        LinearExpression(a.terms, constant: a.constant + k)
    }
    public static func - (a: LinearExpression, k: Double) -> LinearExpression { a + -k }

    public var description: String {
        var parts = terms.map { t in t.coefficient == 1 ? t.variable.name : "\(fmt(t.coefficient))·\(t.variable.name)" }
        if constant != 0 || parts.isEmpty { parts.append(fmt(constant)) }
        return parts.joined(separator: " + ")
    }
}

@MainActor public func + (a: LayoutVariable, b: LayoutVariable) -> LinearExpression {
    LinearExpression(a) + LinearExpression(b)
}
@MainActor public func - (a: LayoutVariable, b: LayoutVariable) -> LinearExpression {
    LinearExpression(a) - LinearExpression(b)
}
@MainActor public func + (a: LayoutVariable, k: Double) -> LinearExpression { LinearExpression(a) + k }
@MainActor public func - (a: LayoutVariable, k: Double) -> LinearExpression { LinearExpression(a) - k }
@MainActor public func * (a: LayoutVariable, k: Double) -> LinearExpression { LinearExpression(a) * k }
@MainActor public func + (a: LinearExpression, b: LayoutVariable) -> LinearExpression { a + LinearExpression(b) }
@MainActor public func - (a: LinearExpression, b: LayoutVariable) -> LinearExpression { a - LinearExpression(b) }

/// How much a constraint matters (UIKit's `UILayoutPriority`, 1…1000): `required` (1000) must
/// hold; below it, a constraint may be broken, and the solver minimises the sum of the broken
/// ones' errors, each weighted by its priority's strength. The strength grows tenfold every
/// 166⅔ points (250 → 10^1.5, 750 → 10^4.5, 999 → 10^6): a priority 250 points higher weighs
/// 31.6 times as much (UIKit's defaults 250 and 750: a thousand times), but weights add up, so
/// many constraints of one priority can outweigh one a few points higher; between equal
/// priorities the solver settles on one of the solutions that cost the same. The range stays
/// within what doubles pivot without losing the small terms.
public struct LayoutPriority: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var rawValue: Double
    public init(_ rawValue: Double) {
        precondition(rawValue.isFinite && rawValue >= 1 && rawValue <= 1000, "a priority is 1…1000, not \(rawValue)")
        self.rawValue = rawValue
    }
    public init(floatLiteral value: Double) { self.init(value) }
    public init(integerLiteral value: Int) { self.init(Double(value)) }

    public static let required: LayoutPriority = 1000
    public static let defaultHigh: LayoutPriority = 750
    public static let defaultLow: LayoutPriority = 250
    /// What a view's size fits its content with when nothing else says (UIKit's fittingSizeLevel).
    public static let fittingSizeLevel: LayoutPriority = 50

    public var isRequired: Bool { rawValue >= 1000 }
    /// The weight of a unit of error at this priority.
    var strength: Double { Double.pow10(rawValue / (500.0 / 3.0)) }

    public static func < (a: LayoutPriority, b: LayoutPriority) -> Bool { a.rawValue < b.rawValue }
}

extension Double {
    /// 10^x.
    static func pow10(_ x: Double) -> Double { Double.exp10(x) }
}

/// A linear relation between expressions with a priority: `expression relation 0`, held as
/// `lhs − rhs`. Made with `==`, `<=` and `>=` on expressions and variables; identity matters
/// (the solver adds and removes this very constraint), so it is a class and not `Equatable`.
@MainActor
public final class LinearConstraint: @MainActor CustomStringConvertible {
    public enum Relation: String, Sendable { case equal = "==", lessOrEqual = "<=", greaterOrEqual = ">=" }

    /// `lhs − rhs`, compared with zero.
    public internal(set) var expression: LinearExpression
    public let relation: Relation
    public let priority: LayoutPriority
    /// For diagnostics (UIKit's identifier): who made it and why.
    public var identifier: String?
    /// The sides as written, for diagnostics (the right one's constant follows
    /// `LayoutSolver.updateConstant`).
    let lhs: LinearExpression
    private(set) var rhs: LinearExpression
    var text: String { "\(lhs) \(relation.rawValue) \(rhs)" }

    public convenience init(
        _ lhs: LinearExpression, _ relation: Relation, _ rhs: LinearExpression,
        priority: LayoutPriority = .required, identifier: String? = nil
    ) {
        self.init(lhs: lhs, relation: relation, rhs: rhs, priority: priority, identifier: identifier)
    }

    init(
        lhs: LinearExpression, relation: Relation, rhs: LinearExpression, priority: LayoutPriority, identifier: String?
    ) {
        self.lhs = lhs
        self.rhs = rhs
        expression = lhs - rhs
        self.relation = relation
        self.priority = priority
        self.identifier = identifier
    }

    /// The right-hand side's constant becomes `value` (the solver's `updateConstant`).
    func setRightConstant(_ value: Double) {
        expression.constant += rhs.constant - value
        rhs.constant = value
    }

    /// As UIKit logs one: its identifier, the relation, and a priority below required.
    public var description: String {
        var s = identifier.map { "\($0): \(text)" } ?? text
        if !priority.isRequired { s += " @\(fmt(priority.rawValue))" }
        return s
    }
}

/// A number as a constraint is written: whole numbers without a decimal point.
func fmt(_ v: Double) -> String {
    if let whole = Int(exactly: v) { return String(whole) }
    return String(v)
}

// Relations on expressions and variables, as a constraint: `a.width == b.width * 2 + 8`.
@MainActor public func == (lhs: LinearExpression, rhs: LinearExpression) -> LinearConstraint {
    LinearConstraint(lhs, .equal, rhs)
}
@MainActor public func <= (lhs: LinearExpression, rhs: LinearExpression) -> LinearConstraint {
    LinearConstraint(lhs, .lessOrEqual, rhs)
}
@MainActor public func >= (lhs: LinearExpression, rhs: LinearExpression) -> LinearConstraint {
    LinearConstraint(lhs, .greaterOrEqual, rhs)
}
@MainActor public func == (lhs: LayoutVariable, rhs: LinearExpression) -> LinearConstraint {
    LinearExpression(lhs) == rhs
}
@MainActor public func == (lhs: LinearExpression, rhs: LayoutVariable) -> LinearConstraint {
    lhs == LinearExpression(rhs)
}
@MainActor public func <= (lhs: LinearExpression, rhs: LayoutVariable) -> LinearConstraint {
    lhs <= LinearExpression(rhs)
}
@MainActor public func >= (lhs: LinearExpression, rhs: LayoutVariable) -> LinearConstraint {
    lhs >= LinearExpression(rhs)
}
@MainActor public func * (k: Double, a: LayoutVariable) -> LinearExpression { LinearExpression(a) * k }
@MainActor public func * (k: Double, a: LinearExpression) -> LinearExpression { a * k }
@MainActor public prefix func - (a: LayoutVariable) -> LinearExpression { LinearExpression(a) * -1 }
@MainActor public prefix func - (a: LinearExpression) -> LinearExpression { a * -1 }
@MainActor public func <= (lhs: LayoutVariable, rhs: LinearExpression) -> LinearConstraint {
    LinearExpression(lhs) <= rhs
}
@MainActor public func >= (lhs: LayoutVariable, rhs: LinearExpression) -> LinearConstraint {
    LinearExpression(lhs) >= rhs
}
@MainActor public func == (lhs: LayoutVariable, rhs: LayoutVariable) -> LinearConstraint {
    LinearExpression(lhs) == LinearExpression(rhs)
}
@MainActor public func == (lhs: LayoutVariable, rhs: Double) -> LinearConstraint {
    LinearExpression(lhs) == LinearExpression(constant: rhs)
}
@MainActor public func <= (lhs: LayoutVariable, rhs: Double) -> LinearConstraint {
    LinearExpression(lhs) <= LinearExpression(constant: rhs)
}
@MainActor public func >= (lhs: LayoutVariable, rhs: Double) -> LinearConstraint {
    LinearExpression(lhs) >= LinearExpression(constant: rhs)
}
@MainActor public func == (lhs: LinearExpression, rhs: Double) -> LinearConstraint {
    lhs == LinearExpression(constant: rhs)
}
@MainActor public func <= (lhs: LinearExpression, rhs: Double) -> LinearConstraint {
    lhs <= LinearExpression(constant: rhs)
}
@MainActor public func >= (lhs: LinearExpression, rhs: Double) -> LinearConstraint {
    lhs >= LinearExpression(constant: rhs)
}
@MainActor public func <= (lhs: LayoutVariable, rhs: LayoutVariable) -> LinearConstraint {
    LinearExpression(lhs) <= LinearExpression(rhs)
}
@MainActor public func >= (lhs: LayoutVariable, rhs: LayoutVariable) -> LinearConstraint {
    LinearExpression(lhs) >= LinearExpression(rhs)
}

/// Below comparison, so `a == b ~ .defaultLow` reads `(a == b) ~ .defaultLow`.
precedencegroup LayoutPriorityPrecedence {
    lowerThan: ComparisonPrecedence
}
infix operator ~ : LayoutPriorityPrecedence
/// A constraint at another priority: `(a.width == 100) ~ .defaultLow`.
@MainActor public func ~ (c: LinearConstraint, p: LayoutPriority) -> LinearConstraint {
    LinearConstraint(lhs: c.lhs, relation: c.relation, rhs: c.rhs, priority: p, identifier: c.identifier)
}
