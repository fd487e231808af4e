/// A failure to read or write pixels, saying what and where.
public struct GraphicsError: Error, CustomStringConvertible, Sendable {
    /// What failed, with the file or size involved: the whole message.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
