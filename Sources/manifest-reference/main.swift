// manifest-reference: writes the Markdown reference of the manifest format from the XSD's
// annotations. A maintainers' tool, run by scripts/manifest-reference; it is not part of the
// library a team links, nor of the archive-harness command.
//
//   manifest-reference [--schema XSD] [--output FILE]
//
// Exit status: 0 written and complete; 1 written, but a declaration has no xs:documentation
// (each is named on standard error as FILE:LINE:COLUMN); 2 the XSD or the output is unusable.

import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("manifest-reference: \(message)\n".utf8))
  exit(2)
}

var schema: String?
var output: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--schema":
    guard let value = arguments.popFirst() else { fail("--schema needs a path") }
    schema = value
  case "--output", "-o":
    guard let value = arguments.popFirst() else { fail("--output needs a path") }
    output = value
  default:
    fail("unknown argument '\(argument)'; usage: manifest-reference [--schema XSD] [--output FILE]")
  }
}

let reference = schema.map { ManifestFormatReference(path: $0) } ?? .builtIn
for diagnostic in reference.problems + reference.undocumented {
  FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
}
guard reference.problems.isEmpty else { exit(2) }
if let output, output != "-" {
  do throws(FileOutputError) {
    try SafeFileWriter.write(Array(reference.markdown.utf8), to: output)
  } catch {
    fail("\(error)")
  }
} else {
  FileHandle.standardOutput.write(Data(reference.markdown.utf8))
}
exit(reference.undocumented.isEmpty ? 0 : 1)
