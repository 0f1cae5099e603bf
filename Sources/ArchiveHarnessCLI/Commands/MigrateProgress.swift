import Foundation

/// The progress line on a terminal's stderr: records done and total, rate, ETA; silent off a terminal.
final class MigrateProgress {
  private let console: Console
  private let total: Int?
  private let start = Date()
  private var lastDraw = Date.distantPast
  private var drawn = false

  init(console: Console, total: Int?) {
    self.console = console
    self.total = total
  }

  /// Updates the line, at most five times a second.
  func update(_ done: Int) {
    guard console.errorIsTerminal else { return }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.2 else { return }
    lastDraw = now
    let elapsed = max(now.timeIntervalSince(start), 0.001)
    let rate = Double(done) / elapsed
    var line = "\r\u{1B}[K\(done)"
    if let total {
      line += "/\(total) records"
      if rate > 0, total > done {
        let remaining = Int(Double(total - done) / rate)
        line += String(format: "  %.0f/s  ETA %d:%02d", rate, remaining / 60, remaining % 60)
      } else {
        line += String(format: "  %.0f/s", rate)
      }
    } else {
      line += String(format: " records  %.0f/s", rate)
    }
    console.error(line)
    drawn = true
  }

  /// Clears the line.
  func finish() {
    if drawn { console.error("\r\u{1B}[K") }
  }
}
