/// The frame and base style that the harness's self-contained HTML reports share.
///
/// `verify --format html` and `migrate-dry-run --format html` are one page
/// each that load nothing: their style and script are inline. The page's own
/// rules come after ``baseStyle``, and ``phoneStyle(_:)`` turns a table into one
/// labelled block per row on a phone. Text inside comes escaped by `XMLText`.
///
/// ```swift
/// var page = HTMLPage.opening(title: "archive-harness verify", style: HTMLPage.baseStyle)
/// page += "<table>…</table>\n" + HTMLPage.closing(script: "")
/// ```
package enum HTMLPage {
  /// The document up to and including the page's `<h1>`, which repeats the title.
  ///
  /// - Parameters:
  ///   - title: The title, as plain text; it is escaped here (a tool's name may hold `&`).
  ///   - style: The inline style sheet.
  /// - Returns: The document's start, ending in a newline.
  package static func opening(title: String, style: String) -> String {
    let title = XMLText.escaped(title)
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(title)</title>
      <style>\(style)</style>
      </head>
      <body>
      <h1>\(title)</h1>

      """
  }

  /// The end of the document, after the page's inline script.
  ///
  /// - Parameter script: The page's inline script.
  /// - Returns: The script element and the closing tags, ending in a newline.
  package static func closing(script: String) -> String {
    "<script>\(script)</script>\n</body>\n</html>\n"
  }

  /// Type, the summary's list, the filter bar and the table, readable at 1280 px.
  package static let baseStyle = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1rem;color:#111;background:#fff}
    dl{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:0}
    dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
    .filters{margin:1rem 0;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
    table{border-collapse:collapse;width:100%}
    th,td{border:1px solid #bbb;padding:.3rem .4rem;text-align:left;vertical-align:top}
    thead th{background:#eee}
    tr[hidden]{display:none}

    """

  /// Below 700 px, each row of class `rowClass` is a block whose cells name their column.
  ///
  /// - Parameter rowClass: The class of the table's record rows.
  /// - Returns: The `@media` rule.
  package static func phoneStyle(_ rowClass: String) -> String {
    """
    @media (max-width:700px){
    table,caption,thead,tbody,tr,th,td{display:block}
    thead{position:absolute;left:-9999px}
    tr.\(rowClass){margin:.5rem 0;border:1px solid #888}
    td::before{content:attr(data-label) ": ";font-weight:600}
    }
    """
  }
}
