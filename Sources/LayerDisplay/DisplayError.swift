/// A window or sound failure, said in one line the user can act on.
public struct DisplayError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
