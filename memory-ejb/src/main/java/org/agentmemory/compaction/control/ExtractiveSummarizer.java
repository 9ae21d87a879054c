package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * The deterministic Stage 2 summarizer (issue 35 item 4): the fallback when no summary model is configured or its call
 * fails. Each turn becomes one line that copies its key sentences, the outcome of each tool invocation and the
 * decisions it states:
 *
 * <pre>
 * - User: &lt;key sentence&gt; Assistant: &lt;1 or 2 key sentences&gt; Tools: kubectl ok; psql error (lock timeout). Decision: &lt;sentence&gt;
 * </pre>
 *
 * <p>A decision is a sentence with a word such as "decided", "agreed", "we will" or "let's"; every decision of the
 * turn is kept, after {@value SummaryText#DECISION}, and such a line is the last to go when the summary is bounded.
 * Among the other sentences, key sentences are chosen by a fixed score (figures and dates, names and length count for
 * a sentence; greetings and fillers against it), ties going to the earlier sentence, and are kept in their original
 * order; a sentence longer than {@value #MAX_SENTENCE_CHARS} code points is cut with {@code …}. Extending
 * a summary appends the new turns' lines to the previous text and then bounds it ({@link SummaryText#bound}): the
 * previous turns are never read again. Pure and thread-safe when the counter is.
 */
public final class ExtractiveSummarizer {

    /** Longest sentence copied, code points; longer ones are cut with {@code …}. */
    public static final int MAX_SENTENCE_CHARS = 300;

    /** Key sentences taken from a user message. */
    public static final int USER_SENTENCES = 1;

    /**
     * Most key sentences taken from an assistant response: a third of its sentences (decisions aside), at least one
     * and at most this many, so that a line stays shorter than the response it stands for.
     */
    public static final int ASSISTANT_SENTENCES = 2;

    /** Longest tool error kept in a tool outcome, code points. */
    static final int MAX_ERROR_CHARS = 120;

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?\u2026])\\s+|\\s*\\R\\s*");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’.,:/-]*");
    private static final List<String> DECISION_WORDS = List.of(
            "decided",
            "decide to",
            "decision",
            "agreed",
            "we will",
            "we'll",
            "i will",
            "i'll",
            "let's",
            "let us",
            "going to",
            "plan to",
            "chose",
            "settled on",
            "confirmed",
            "approved");
    private static final List<String> FILLERS = List.of(
            "hi", "hey", "hello", "thanks", "thank", "ok", "okay", "sure", "great", "wow", "cool", "yes", "no", "bye");

    private final TokenCounter counter;

    /** @param counter the memory's token counter (bounds the summary); never {@code null} */
    public ExtractiveSummarizer(TokenCounter counter) {
        this.counter = Objects.requireNonNull(counter, "counter");
    }

    /**
     * Extends a summary with the lines of newly dropped turns and bounds it to {@code maxTokens}.
     *
     * @param previous  the summary so far, or {@code null} for a new summary
     * @param turns     the newly dropped turns, oldest first; only they are read
     * @param maxTokens most tokens of the result (≥ 1)
     * @return the new summary; blank only when neither the previous summary nor the turns have any text
     */
    public String extend(String previous, List<TurnRecord> turns, int maxTokens) {
        List<String> lines = new ArrayList<>(SummaryText.lines(previous));
        for (TurnRecord turn : turns) {
            String line = line(turn);
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        return SummaryText.bound(lines, maxTokens, counter);
    }

    /**
     * @param turn a turn
     * @return its summary line, {@code ""} when it has no text and no tool invocation
     */
    public static String line(TurnRecord turn) {
        List<String> decisions = new ArrayList<>();
        List<String> user = keySentences(facts(sentences(turn.userMessage()), decisions), USER_SENTENCES);
        List<String> assistantFacts = facts(sentences(turn.assistantResponse()), decisions);
        List<String> assistant =
                keySentences(assistantFacts, Math.max(1, Math.min(ASSISTANT_SENTENCES, assistantFacts.size() / 3)));
        List<String> parts = new ArrayList<>(4);
        if (!user.isEmpty()) {
            parts.add("User: " + String.join(" ", user));
        }
        if (!assistant.isEmpty()) {
            parts.add("Assistant: " + String.join(" ", assistant));
        }
        String tools = toolOutcomes(turn.toolInvocations());
        if (!tools.isEmpty()) {
            parts.add("Tools: " + tools + ".");
        }
        if (!decisions.isEmpty()) {
            parts.add(SummaryText.DECISION + " " + String.join(" ", decisions));
        }
        return parts.isEmpty() ? "" : SummaryText.LINE_PREFIX + String.join(" ", parts);
    }

    /** The sentences that are not decisions; the decisions, cut, go to {@code decisions}. */
    private static List<String> facts(List<String> sentences, List<String> decisions) {
        List<String> facts = new ArrayList<>(sentences.size());
        for (String sentence : sentences) {
            if (isDecision(sentence)) {
                decisions.add(cut(sentence));
            } else {
                facts.add(sentence);
            }
        }
        return facts;
    }

    /**
     * @param invocations a turn's tool invocations
     * @return {@code name ok} or {@code name error (first line of the error)} per invocation, joined with
     *         {@code ; }; {@code ""} when there are none
     */
    public static String toolOutcomes(List<ToolInvocationRecord> invocations) {
        List<String> outcomes = new ArrayList<>(invocations.size());
        for (ToolInvocationRecord invocation : invocations) {
            boolean failed = invocation.status() == InvocationStatus.ERROR
                    || (invocation.error() != null && !invocation.error().isBlank());
            String name = invocation.toolName() == null ? "tool" : oneLine(invocation.toolName());
            if (!failed) {
                outcomes.add(name + " ok");
                continue;
            }
            String error = invocation.error() == null ? "" : firstLine(invocation.error());
            outcomes.add(
                    error.isEmpty()
                            ? name + " error"
                            : name + " error (" + CodePoints.truncateWithCount(error, MAX_ERROR_CHARS) + ")");
        }
        return String.join("; ", outcomes);
    }

    /**
     * Splits a text into sentences: after {@code .}, {@code !}, {@code ?} or {@code …} followed by white space,
     * and at line breaks; blank pieces are left out and white space runs become one space.
     *
     * @param text any text, {@code null} counts as {@code ""}
     * @return the sentences in order
     */
    public static List<String> sentences(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String piece : SENTENCE_END.split(text.strip())) {
            String sentence = piece.strip().replaceAll("\\s+", " ");
            if (!sentence.isEmpty()) {
                out.add(sentence);
            }
        }
        return out;
    }

    /**
     * @param sentences a text's sentences, in order
     * @param k         how many to keep (≥ 0)
     * @return the {@code k} best-scoring sentences (ties to the earlier), in their original order, each cut to
     *         {@value #MAX_SENTENCE_CHARS} code points
     */
    public static List<String> keySentences(List<String> sentences, int k) {
        if (sentences.isEmpty() || k <= 0) {
            return List.of();
        }
        List<Integer> order = new ArrayList<>(sentences.size());
        for (int i = 0; i < sentences.size(); i++) {
            order.add(i);
        }
        double[] scores = new double[sentences.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = score(sentences.get(i), i);
        }
        order.sort(Comparator.<Integer>comparingDouble(i -> -scores[i]).thenComparingInt(i -> i));
        List<Integer> chosen = new ArrayList<>(order.subList(0, Math.min(k, order.size())));
        Collections.sort(chosen);
        List<String> out = new ArrayList<>(chosen.size());
        for (int i : chosen) {
            out.add(cut(sentences.get(i)));
        }
        return out;
    }

    /**
     * The score of a sentence: +2 per word with a digit, +1 per capitalised word after the first, +0.2 per word up to
     * 25 words, +0.5 for the first sentence; −3 below 3 words, −2 for a short greeting or filler.
     *
     * @param sentence a sentence
     * @param index    its position in its text
     * @return the score
     */
    static double score(String sentence, int index) {
        List<String> words = words(sentence);
        double score = 0;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.chars().anyMatch(Character::isDigit)) {
                score += 2;
            } else if (i > 0 && Character.isUpperCase(w.codePointAt(0))) {
                score += 1;
            }
        }
        score += 0.2 * Math.min(words.size(), 25);
        if (index == 0) {
            score += 0.5;
        }
        if (words.size() < 3) {
            score -= 3;
        }
        if (!words.isEmpty()
                && words.size() < 8
                && FILLERS.contains(words.get(0).toLowerCase(Locale.ROOT).replaceAll("[^a-z]", ""))) {
            score -= 2;
        }
        return score;
    }

    /**
     * @param sentence a sentence
     * @return whether it states a decision (case-insensitive: "decided", "agreed", "we will", "let's", …)
     */
    public static boolean isDecision(String sentence) {
        String lower = " " + sentence.toLowerCase(Locale.ROOT).replace('’', '\'') + " ";
        for (String word : DECISION_WORDS) {
            int at = lower.indexOf(word);
            if (at > 0 && !Character.isLetter(lower.charAt(at - 1))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> words(String sentence) {
        List<String> words = new ArrayList<>();
        var m = WORD.matcher(sentence);
        while (m.find()) {
            words.add(m.group());
        }
        return words;
    }

    private static String cut(String sentence) {
        return CodePoints.length(sentence) <= MAX_SENTENCE_CHARS
                ? sentence
                : CodePoints.head(sentence, MAX_SENTENCE_CHARS - 1) + "\u2026";
    }

    private static String firstLine(String text) {
        for (String line : text.strip().split("\\R")) {
            if (!line.isBlank()) {
                return oneLine(line);
            }
        }
        return "";
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }
}
