import Reading
import Testing

@Test(arguments: [
    ("The cat sat on the mat and looked at the door.", "en"),
    ("Der Hund ist nicht zu Hause, aber die Katze schläft auf dem Sofa.", "de"),
    ("Er kam am 3. Oktober an. Dann ging er.", "de"),
    ("I had a dream.", "en"),
    ("Le chat est sur la table et il regarde les oiseaux dans le jardin.", "fr"),
    ("El perro está en la casa y los niños juegan con la pelota.", "es"),
    ("Il gatto è sulla sedia e non vuole che la porta sia chiusa.", "it"),
    ("De hond is niet thuis, maar de kat slaapt op een stoel.", "nl"),
    ("O gato está em casa e não quer sair com os meninos para a rua.", "pt"),
    ("今日はいい天気ですね。散歩に行きましょう。", "ja"),
    ("今天天气很好，我们去公园散步吧。", "zh"),
    ("안녕하세요, 오늘 날씨가 좋네요.", "ko"),
    ("Привет, как дела? Это было очень интересно.", "ru"),
    ("Привіт, як справи? Це було дуже цікаво, їжак.", "uk"),
    ("Καλημέρα, τι κάνεις σήμερα;", "el"),
    ("مرحبا، كيف حالك اليوم؟", "ar"),
    ("שלום, מה שלומך היום?", "he"),
    ("नमस्ते, आप कैसे हैं?", "hi"),
])
func `a text's language is told by its script, or by its common words`(text: String, language: String) {
    #expect(LanguageGuess.language(of: text) == language)
}

@Test func `a text too short or without words gives no guess`() {
    #expect(LanguageGuess.language(of: "") == nil)
    #expect(LanguageGuess.language(of: "12345 !!! ---") == nil)
    #expect(LanguageGuess.language(of: "Xylophon Zebra Quokka Wombat") == nil)
}
