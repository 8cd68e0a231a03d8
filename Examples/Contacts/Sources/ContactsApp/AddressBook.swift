/// One person in the address book.
public struct Contact: Equatable, Sendable {
    /// Unique, in the order people were added.
    public let id: Int
    public let givenName: String
    public let familyName: String
    public let phone: String
    public let email: String
    public let city: String

    public var name: String { "\(givenName) \(familyName)" }
    /// The letter of the section the person is listed under (family names sort the book).
    public var initial: String { String(familyName.prefix(1)) }
    /// What a search looks in, lowercased once.
    let searchText: String
}

/// The people, made up: the same seed gives the same book on every run and machine, so tests
/// and screenshots can count on who is where. The book is sorted by family name, then given
/// name; people added later (`addPeople`, a pull to refresh) are kept apart as `recent`.
public final class AddressBook {
    public private(set) var people: [Contact] = []
    /// Added since start, newest first.
    public private(set) var recent: [Contact] = []
    private var random: SplitMix64
    private var nextID = 0
    /// Every (given, family) pair, shuffled: people are drawn from it, so no name repeats
    /// until all 3,200 are used.
    private var names: [(given: String, family: String)] = []

    public init(count: Int = 3_000, seed: UInt64 = 2_024) {
        random = SplitMix64(seed: seed)
        names = Self.givenNames.flatMap { g in Self.familyNames.map { (g, $0) } }
        // Fisher–Yates by hand: the standard library's shuffle may change between releases.
        for i in stride(from: names.count - 1, to: 0, by: -1) { names.swapAt(i, random.number(in: 0...i)) }
        people = (0..<count).map { _ in makeContact() }
            .sorted { ($0.familyName, $0.givenName, $0.id) < ($1.familyName, $1.givenName, $1.id) }
    }

    public var count: Int { people.count + recent.count }

    /// Takes `contact` out of the book (a swipe's Delete).
    public func remove(_ contact: Contact) {
        people.removeAll { $0.id == contact.id }
        recent.removeAll { $0.id == contact.id }
    }

    /// Adds `count` new people (as a sync would bring them) and returns them.
    @discardableResult
    public func addPeople(_ count: Int) -> [Contact] {
        let added = (0..<count).map { _ in makeContact() }
        recent = added.reversed() + recent
        return added
    }

    private func makeContact() -> Contact {
        let (given, family) = names.popLast() ?? (random.pick(Self.givenNames), random.pick(Self.familyNames))
        let phone = "+1 555 \(random.number(in: 100...999)) \(random.number(in: 1000...9999))"
        let email = "\(given.lowercased()).\(family.lowercased())@example.com"
        nextID += 1
        return Contact(
            id: nextID, givenName: given, familyName: family, phone: phone, email: email,
            city: random.pick(Self.cities), searchText: "\(given) \(family) \(phone)".lowercased())
    }

    // 50 given names and 64 family names: 3,200 different people before any name repeats.
    static let givenNames = [
        "Ada", "Alex", "Amara", "Anton", "Ben", "Bianca", "Carmen", "Chloe", "Daniel", "Dara", "Elena", "Emil",
        "Farah", "Felix", "Grace", "Gustav", "Hana", "Hugo", "Ines", "Ivan", "Jonas", "Julia", "Kai", "Kofi", "Leila",
        "Liam", "Maya", "Mateo", "Nina", "Noah", "Olga", "Omar", "Pablo", "Priya", "Quentin", "Rosa", "Ravi", "Sam",
        "Sofia", "Tomas", "Tara", "Uma", "Victor", "Vera", "Wen", "Willa", "Xavier", "Yara", "Yusuf", "Zoe",
    ]
    static let familyNames = [
        "Adams", "Alvarez", "Abe", "Baker", "Brown", "Bianchi", "Chen", "Clark", "Costa", "Davis", "Diaz", "Dubois",
        "Evans", "Edwards", "Fischer", "Flores", "Fraser", "Garcia", "Green", "Gupta", "Hall", "Hughes", "Haddad",
        "Ito", "Iyer", "Jensen", "Johnson", "Kim", "King", "Kowalski", "Lopez", "Lee", "Larsen", "Martin", "Moore",
        "Mensah", "Nguyen", "Nelson", "Novak", "Okafor", "Olsen", "Patel", "Perez", "Petrov", "Quinn", "Reed",
        "Rossi", "Smith", "Silva", "Sato", "Taylor", "Tanaka", "Ueda", "Vargas", "Volkov", "Walker", "Wong",
        "Weber", "Xu", "Young", "Yilmaz", "Zhang", "Ziegler", "Zapata",
    ]
    static let cities = [
        "Lisbon", "Nairobi", "Osaka", "Montréal", "Berlin", "Lima", "Auckland", "Chennai", "Oslo", "Dakar",
    ]
}

/// A small, fast, seeded generator (SplitMix64): the same seed, the same numbers.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func number(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func pick<T>(_ items: [T]) -> T { items[number(in: 0...items.count - 1)] }
}
