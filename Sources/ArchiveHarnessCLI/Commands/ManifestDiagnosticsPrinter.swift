import ArchiveCoder
import ArchiveHarness
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// Prints manifest diagnostics to standard error as `FILE:LINE:COLUMN: error: message`.
enum ManifestDiagnosticsPrinter {
  static func print(_ diagnostics: [ManifestDiagnostic], to console: Console) {
    for diagnostic in diagnostics {
      console.diagnose(
        diagnostic.severity, place: diagnostic.location,
        category: diagnostic.category, diagnostic.message)
    }
  }
}
