package org.agentmemory.compaction.control;

import org.agentmemory.platform.tokens.TokenCounter;

/** A counter whose counts can be done by hand: one token per whitespace-separated word. */
final class WordCounter implements TokenCounter {

    static final WordCounter INSTANCE = new WordCounter();

    @Override
    public String name() {
        return "words";
    }

    @Override
    public int count(String text) {
        if (text == null) {
            return 0;
        }
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = Character.isWhitespace(text.charAt(i));
            if (!space && !inWord) {
                words++;
            }
            inWord = !space;
        }
        return words;
    }
}
