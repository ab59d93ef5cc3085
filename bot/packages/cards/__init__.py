"""Cards drawn as pictures: the generated faces (`faces`) and their application emojis
(`emojis`), used where Discord can show a custom emoji, with text as the fallback."""
