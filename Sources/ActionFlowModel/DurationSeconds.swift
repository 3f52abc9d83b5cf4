extension Duration {
    /// The duration in seconds, as a `Double` (what timings print and divide by).
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
