/// A window or sound failure, said in one line the user can act on.
public struct DisplayError: Error, CustomStringConvertible {
    /// The whole message, e.g. "cannot open a window: …".
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
