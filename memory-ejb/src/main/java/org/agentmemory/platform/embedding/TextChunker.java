package org.agentmemory.platform.embedding;

import java.text.BreakIterator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * Splits a text that is longer than an embedding model's window into chunks that fit, for chunk-and-average
 * embedding. Pure: the word-piece counter comes in.
 *
 * <p>Rules: a text of at most {@code maxTokens} is one chunk. Otherwise it is cut into sentences
 * ({@link BreakIterator}, root locale); a sentence longer than {@code maxTokens} into whitespace-separated
 * words; a word longer than that into halves until each piece fits. Units are packed greedily in order,
 * joined by one space; each new chunk starts with the trailing units of the previous chunk that add up to at
 * most {@code overlapTokens} (and still leave room for the next unit), so context carries across the cut.
 *
 * <p>Token counts are added per unit. That is exact for BERT word-piece tokenizers, which never form a
 * token across whitespace.
 */
public final class TextChunker {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    /**
     * One chunk.
     *
     * @param text   the chunk's text
     * @param tokens its word pieces, without special tokens
     */
    public record Chunk(String text, int tokens) {}

    private record Unit(String text, int tokens) {}

    private final int maxTokens;
    private final int overlapTokens;
    private final ToIntFunction<String> counter;

    /**
     * @param maxTokens     word pieces per chunk at most, ≥ 2
     * @param overlapTokens word pieces carried into the next chunk at most, 0 ≤ overlap &lt; maxTokens
     * @param counter       word pieces of a text, without special tokens
     */
    public TextChunker(int maxTokens, int overlapTokens, ToIntFunction<String> counter) {
        if (maxTokens < 2 || overlapTokens < 0 || overlapTokens >= maxTokens) {
            throw new IllegalArgumentException("chunking needs maxTokens ≥ 2 and 0 ≤ overlapTokens < maxTokens; got "
                    + maxTokens + " and " + overlapTokens);
        }
        this.maxTokens = maxTokens;
        this.overlapTokens = overlapTokens;
        this.counter = counter;
    }

    /**
     * @param text a non-blank text
     * @return its chunks in order, at least one
     */
    public List<Chunk> chunk(String text) {
        int total = counter.applyAsInt(text);
        if (total <= maxTokens) {
            return List.of(new Chunk(text, total));
        }
        List<Unit> units = new ArrayList<>();
        for (String sentence : sentences(text)) {
            addUnit(units, sentence);
        }
        return pack(units);
    }

    /**
     * The first chunk of {@link #chunk}, computed from only as much of the text as it needs: a query embedded by
     * its first window costs the same whether it has 200 words or 50,000.
     *
     * @param text a non-blank text
     * @return {@code chunk(text).get(0)}
     */
    public Chunk first(String text) {
        // Every word is at least one piece: a text of more words than fit is not counted whole, since only its
        // first window is needed.
        if (!moreWordsThanFit(text)) {
            int total = counter.applyAsInt(text);
            if (total <= maxTokens) {
                return new Chunk(text, total);
            }
        }
        List<Unit> units = new ArrayList<>();
        int[] sum = {0};
        for (String sentence : sentences(text)) {
            if (!addUnitsUpTo(units, sentence, sum)) {
                break;
            }
        }
        return pack(units).get(0);
    }

    /**
     * As {@link #addUnit}, stopping once the units hold more than {@code maxTokens}: the first chunk is then
     * complete, since packing closes a chunk at the first unit that would overflow it.
     *
     * @return whether more units may still belong to the first chunk
     */
    private boolean addUnitsUpTo(List<Unit> units, String sentence, int[] sum) {
        int tokens = moreWordsThanFit(sentence) ? Integer.MAX_VALUE : counter.applyAsInt(sentence);
        if (tokens <= maxTokens) {
            if (tokens > 0) {
                units.add(new Unit(sentence, tokens));
                sum[0] += tokens;
            }
            return sum[0] <= maxTokens;
        }
        for (String word : WHITESPACE.split(sentence)) {
            if (!word.isEmpty()) {
                int before = units.size();
                addWord(units, word);
                for (int i = before; i < units.size(); i++) {
                    sum[0] += units.get(i).tokens();
                }
                if (sum[0] > maxTokens) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return whether the text has more whitespace-separated words than {@code maxTokens} (so more pieces) */
    private boolean moreWordsThanFit(String text) {
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = Character.isWhitespace(text.charAt(i));
            if (!space && !inWord && ++words > maxTokens) {
                return true;
            }
            inWord = !space;
        }
        return false;
    }

    private void addUnit(List<Unit> units, String sentence) {
        int tokens = counter.applyAsInt(sentence);
        if (tokens <= maxTokens) {
            if (tokens > 0) {
                units.add(new Unit(sentence, tokens));
            }
            return;
        }
        for (String word : WHITESPACE.split(sentence)) {
            if (!word.isEmpty()) {
                addWord(units, word);
            }
        }
    }

    private void addWord(List<Unit> units, String word) {
        int tokens = counter.applyAsInt(word);
        if (tokens <= maxTokens) {
            if (tokens > 0) {
                units.add(new Unit(word, tokens));
            }
            return;
        }
        int codePoints = word.codePointCount(0, word.length());
        int middle = word.offsetByCodePoints(0, codePoints / 2);
        addWord(units, word.substring(0, middle));
        addWord(units, word.substring(middle));
    }

    private List<Chunk> pack(List<Unit> units) {
        List<Chunk> chunks = new ArrayList<>();
        Deque<Unit> current = new ArrayDeque<>();
        int currentTokens = 0;
        boolean hasNew = false;
        for (Unit unit : units) {
            if (hasNew && currentTokens + unit.tokens() > maxTokens) {
                chunks.add(toChunk(current, currentTokens));
                Deque<Unit> overlap = new ArrayDeque<>();
                int overlapSum = 0;
                for (var it = current.descendingIterator(); it.hasNext(); ) {
                    Unit previous = it.next();
                    if (overlapSum + previous.tokens() > overlapTokens
                            || overlapSum + previous.tokens() + unit.tokens() > maxTokens) {
                        break;
                    }
                    overlap.addFirst(previous);
                    overlapSum += previous.tokens();
                }
                current = overlap;
                currentTokens = overlapSum;
                hasNew = false;
            }
            current.addLast(unit);
            currentTokens += unit.tokens();
            hasNew = true;
        }
        if (hasNew) {
            chunks.add(toChunk(current, currentTokens));
        }
        return chunks;
    }

    private static Chunk toChunk(Deque<Unit> units, int tokens) {
        StringBuilder text = new StringBuilder();
        for (Unit unit : units) {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(unit.text());
        }
        return new Chunk(text.toString(), tokens);
    }

    private static List<String> sentences(String text) {
        BreakIterator iterator = BreakIterator.getSentenceInstance(Locale.ROOT);
        iterator.setText(text);
        List<String> sentences = new ArrayList<>();
        int start = iterator.first();
        for (int end = iterator.next(); end != BreakIterator.DONE; start = end, end = iterator.next()) {
            String sentence = text.substring(start, end).strip();
            if (!sentence.isEmpty()) {
                sentences.add(sentence);
            }
        }
        return sentences;
    }
}
