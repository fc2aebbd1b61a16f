import Reading
import Testing

@Test func `headings, paragraphs, list items and quotations become paragraphs of their words`() {
    let markdown = """
        # Utter *reads* aloud #

        It reads **plain text** and _Markdown_,
        line by line.

        - one item
        - [x] a done task
          that goes on
        3. a numbered item

        > A quotation
        > > nested

        Setext title
        ============
        ---
        Last words\\*
        """
    #expect(
        MarkdownText.readable(markdown) == """
            Utter reads aloud

            It reads plain text and Markdown,
            line by line.

            one item

            a done task
            that goes on

            a numbered item

            A quotation
            nested

            Setext title

            Last words*
            """)
}

@Test func `links keep their text, images their description, code spans their code`() {
    #expect(
        MarkdownText.readable(
            "See [the guide](https://example.org/guide \"Guide\") and [that][ref], ![a red fox](fox.png) "
                + "or <https://example.org>. Call `utter read`, not ``a `b` c``.[^1]\n\n[ref]: https://example.org")
            == "See the guide and that, a red fox or https://example.org. Call utter read, not a `b` c.")
}

@Test func `code blocks, HTML comments and tags are left out, entities decoded`() {
    let markdown = """
        Before.

        ```swift
        let x = 1
        ```

            indented code

        <!-- a comment
        over lines -->
        <p>An <b>HTML</b> paragraph &amp; more&hellip;</p>
        ~~~
        more code
        ~~~
        After 2 * 3 = 6 and snake_case_name.
        """
    #expect(
        MarkdownText.readable(markdown) == """
            Before.

            An HTML paragraph & more…

            After 2 * 3 = 6 and snake_case_name.
            """)
}

@Test func `table cells are read row by row`() {
    let markdown = """
        | Name | Language |
        |------|:--------:|
        | Anna | German   |
        | Bo   |          |
        """
    #expect(MarkdownText.readable(markdown) == "Name, Language\n\nAnna, German\n\nBo")
}

@Test func `a text without any words reads as nothing`() {
    #expect(MarkdownText.readable("") == "")
    #expect(MarkdownText.readable("---\n\n```\ncode\n```\n* * *\n") == "")
}

@Test func `a line of markup only leaves no empty line behind, nor white space around a line`() {
    #expect(MarkdownText.readable("<div>\nFirst line <br>\n<br/>\n  second line\n</div>") == "First line\nsecond line")
    // Found by Fuzz/run ReadingFuzzer: a form feed (a line break to Swift) opened the text.
    #expect(MarkdownText.readable("# \u{0C}Notes\u{2028}") == "Notes")
}
