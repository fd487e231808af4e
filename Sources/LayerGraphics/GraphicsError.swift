/// A failure to read or write pixels, saying what and where.
public struct GraphicsError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
