package org.agentmemory.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.config.Stage2Settings;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.ExtractiveSummarizer;
import org.agentmemory.compaction.control.HistoryRenderer;
import org.agentmemory.compaction.control.SummaryPrompt;
import org.agentmemory.context.control.ConversationRendering;
import org.agentmemory.context.control.ResolvedBudget;
import org.agentmemory.conversation.control.HistoryWindow;
import org.agentmemory.conversation.control.SummaryRefreshes;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;

/**
 * LoCoMo evidence coverage with and without Stage 2 summaries (issue 35 item 4), in process.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -q -pl memory-api,memory-ejb,memory-bench -am package -DskipTests
 * java -cp "memory-bench/target/memory-bench-0.1.0-SNAPSHOT.jar:$(cat memory-bench/target/classpath.txt)" \
 *      org.agentmemory.bench.Stage2LocomoBenchmark ../shared/data/locomo/turns-dev.jsonl \
 *      ../shared/data/locomo/queries-dev.jsonl
 * </pre>
 *
 * <p>What is measured. Each LoCoMo conversation of the files (the dev split: the conversations the files hold) is one
 * history of all its sessions, each utterance paired with the next speaker's reply in the same session as one turn
 * (as the suite's LoCoMo import pairs them), the turns' token counts stored as the write path stores them. The history
 * is replayed round by round as an agent drives the server: before each turn, the context for a history budget of
 * {@value #HISTORY_TOKENS} tokens ({@code maxHistoryTokens}, a window large enough not to bind); the turn is then
 * saved with that context's commit, and when the commit dropped turns and the conversation's Stage-2 flag is set,
 * the summary is extended as the server's background refresh extends it without a model ({@link SummaryRefreshes},
 * {@link SummaryPrompt#calls}, {@link ExtractiveSummarizer}, bounded to the default
 * {@value Stage2Settings.Defaults#MAX_SUMMARY_TOKENS} tokens). The classes are the server's own: the context is
 * {@link ConversationRendering#render} with the tail the server loads ({@link HistoryWindow#plan}); only the database
 * and the asynchrony are left out (here each refresh completes before the next round, as it does on an idle server).
 * Every question is then asked of the context after the conversation's last turn, rendered twice: with Stage 1 only
 * ({@code memory.stage2.enabled=false}) and with the summary.
 *
 * <p>An evidence utterance is present when its text appears in the context's messages; with Stage 2 also when one of
 * its sentences of at least {@value #MIN_SENTENCE_WORDS} words appears in the summary block shown. Reported per
 * {@code maxTurns} ceiling (the spec's 30 and one that never binds): the mean share of a question's evidence present,
 * the questions with all and with any evidence present, the evidence utterances present, the summary's size and
 * coverage, and the tokens used. Evidence ids the turns file does not hold are left out (and counted).
 */
public final class Stage2LocomoBenchmark {

    /** The context's history budget, tokens. */
    static final int HISTORY_TOKENS = 4_000;

    /** A {@code maxTurns} no LoCoMo conversation reaches: only the token budget drops turns. */
    static final int UNBOUNDED_TURNS = 100_000;

    /** A summary sentence counts only with at least this many words (a "Yes." matches too much). */
    static final int MIN_SENTENCE_WORDS = 4;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final Instant T0 = Instant.parse("2023-01-01T00:00:00Z");

    private Stage2LocomoBenchmark() {}

    /** One LoCoMo utterance and where it went. */
    private record Utterance(String diaId, String text, String turnId) {}

    /** A conversation as turns, with its utterances by dia_id. */
    private record Conversation(String convId, List<TurnRecord> turns, Map<String, Utterance> byDiaId) {}

    /** One question. */
    private record Question(String convId, int category, List<String> evidence) {}

    /** Tallies of one configuration. */
    private static final class Tally {
        double coverageSum;
        int questions;
        int allPresent;
        int anyPresent;
        long evidence;
        long evidencePresent;
        long viaSummary;
        final Map<Integer, double[]> byCategory = new TreeMap<>();

        void add(Question q, int present, int total, int fromSummary) {
            double share = (double) present / total;
            coverageSum += share;
            questions++;
            allPresent += present == total ? 1 : 0;
            anyPresent += present > 0 ? 1 : 0;
            evidence += total;
            evidencePresent += present;
            viaSummary += fromSummary;
            double[] c = byCategory.computeIfAbsent(q.category(), k -> new double[2]);
            c[0] += share;
            c[1]++;
        }
    }

    /**
     * @param args the turns file and the queries file (defaults: the workspace's {@code shared/data/locomo} dev
     *             files)
     * @throws IOException           when a file cannot be read
     * @throws InvalidInputException never: the request's fields are in range
     */
    public static void main(String[] args) throws IOException, InvalidInputException {
        Path turnsFile = Path.of(args.length > 0 ? args[0] : "../shared/data/locomo/turns-dev.jsonl");
        Path queriesFile = Path.of(args.length > 1 ? args[1] : "../shared/data/locomo/queries-dev.jsonl");
        Map<String, Conversation> conversations = conversations(turnsFile);
        List<Question> questions = questions(queriesFile);
        System.out.printf(
                Locale.ROOT,
                "LoCoMo dev: %d conversations, %d turns, %d questions; history budget %,d tokens (%s)%n",
                conversations.size(),
                conversations.values().stream().mapToInt(c -> c.turns().size()).sum(),
                questions.size(),
                HISTORY_TOKENS,
                COUNTER.name());
        for (int maxTurns : new int[] {ContextBudget.DEFAULT_MAX_TURNS, UNBOUNDED_TURNS}) {
            run(conversations, questions, maxTurns);
        }
    }

    private static void run(Map<String, Conversation> conversations, List<Question> questions, int maxTurns)
            throws InvalidInputException {
        ConversationRendering stage1 = ConversationRendering.configured(Map.of(), Map.of(), COUNTER, 2000, true, false);
        ConversationRendering stage2 = ConversationRendering.configured(Map.of(), Map.of(), COUNTER, 2000, true, true);
        ContextRequest request = ContextRequest.forWindow(1_000_000)
                .withMaxHistoryTokens(HISTORY_TOKENS)
                .withMaxTurns(maxTurns);
        ResolvedBudget budget = stage2.resolve(request);
        Tally without = new Tally();
        Tally with = new Tally();
        long summaryTokens = 0;
        long summaryTurns = 0;
        long tokensWithout = 0;
        long tokensWith = 0;
        int summaries = 0;
        int missingEvidence = 0;
        long refreshes = 0;
        for (Conversation c : conversations.values()) {
            Replay replay = replay(c, stage2, budget, request);
            refreshes += replay.refreshes;
            ConversationContext plain = render(stage1, c.turns(), null, budget, request);
            ConversationContext summarised = render(stage2, c.turns(), replay.summary, budget, request);
            tokensWithout += plain.tokensUsed();
            tokensWith += summarised.tokensUsed();
            if (summarised.summary() != null) {
                summaries++;
                summaryTokens += summarised.summary().tokenCount();
                summaryTurns += summarised.summary().turnCount();
            }
            String plainText = text(plain.messages());
            String summarisedText = text(summarised.messages());
            String summaryText =
                    summarised.summary() == null ? "" : summarised.summary().text();
            for (Question q : questions) {
                if (!q.convId().equals(c.convId())) {
                    continue;
                }
                int total = 0;
                int presentPlain = 0;
                int presentWith = 0;
                int fromSummary = 0;
                for (String dia : q.evidence()) {
                    Utterance u = c.byDiaId().get(dia);
                    if (u == null) {
                        missingEvidence++;
                        continue;
                    }
                    total++;
                    presentPlain += plainText.contains(u.text()) ? 1 : 0;
                    if (summarisedText.contains(u.text())) {
                        presentWith++;
                    } else if (inSummary(u.text(), summaryText)) {
                        presentWith++;
                        fromSummary++;
                    }
                }
                if (total > 0) {
                    without.add(q, presentPlain, total, 0);
                    with.add(q, presentWith, total, fromSummary);
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%nmaxTurns %s: %d of %d conversations show a summary (%,d summary refreshes in the replay); summary"
                        + " shown: mean %.0f tokens covering %.0f turns; context tokens used: mean %.0f without, %.0f with;"
                        + " %d evidence ids not in the turns file%n",
                maxTurns >= UNBOUNDED_TURNS ? "unbounded" : Integer.toString(maxTurns),
                summaries,
                conversations.size(),
                refreshes,
                summaries == 0 ? 0.0 : (double) summaryTokens / summaries,
                summaries == 0 ? 0.0 : (double) summaryTurns / summaries,
                (double) tokensWithout / conversations.size(),
                (double) tokensWith / conversations.size(),
                missingEvidence);
        System.out.println("| context | mean evidence coverage | questions with all evidence | with any evidence |"
                + " evidence utterances present | of them via the summary |");
        System.out.println("|---|---|---|---|---|---|");
        report("Stage 1 only", without);
        report("Stage 1 + Stage 2 (extractive)", with);
        System.out.print(
                "| coverage by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial) |");
        for (Map.Entry<Integer, double[]> e : without.byCategory.entrySet()) {
            double[] w = with.byCategory.get(e.getKey());
            System.out.printf(
                    Locale.ROOT,
                    " %d: %.3f → %.3f (%d) |",
                    e.getKey(),
                    e.getValue()[0] / e.getValue()[1],
                    w[0] / w[1],
                    (int) e.getValue()[1]);
        }
        System.out.println();
    }

    private static void report(String name, Tally t) {
        System.out.printf(
                Locale.ROOT,
                "| %s | %.3f | %.1f %% (%d/%d) | %.1f %% | %,d / %,d | %,d |%n",
                name,
                t.coverageSum / t.questions,
                100.0 * t.allPresent / t.questions,
                t.allPresent,
                t.questions,
                100.0 * t.anyPresent / t.questions,
                t.evidencePresent,
                t.evidence,
                t.viaSummary);
    }

    /** Whether a sentence of the utterance (of at least {@value #MIN_SENTENCE_WORDS} words) is in the summary. */
    static boolean inSummary(String utterance, String summary) {
        if (summary.isEmpty()) {
            return false;
        }
        for (String sentence : ExtractiveSummarizer.sentences(utterance)) {
            if (sentence.split("\\s+").length >= MIN_SENTENCE_WORDS && summary.contains(sentence)) {
                return true;
            }
        }
        return false;
    }

    private static String text(List<HistoryMessage> messages) {
        StringBuilder all = new StringBuilder();
        for (HistoryMessage m : messages) {
            all.append(m.content()).append('\n');
        }
        return all.toString();
    }

    /** The state at the end of a replay. */
    private record Replay(HistorySummary summary, long refreshes) {}

    /**
     * Replays a conversation round by round: context, then the turn saved with its commit, then the background refresh
     * the commit asks for.
     */
    private static Replay replay(
            Conversation c, ConversationRendering rendering, ResolvedBudget budget, ContextRequest request) {
        List<TurnRecord> turns = c.turns();
        HistorySummary summary = null;
        boolean stage2Flag = false;
        long refreshes = 0;
        for (int i = 1; i < turns.size(); i++) {
            List<TurnRecord> history = turns.subList(0, i);
            CompactionCommit commit =
                    render(rendering, history, summary, budget, request).commit();
            stage2Flag |= commit.stage2Needed();
            if (!stage2Flag || commit.droppedTurns() <= 0) {
                continue;
            }
            List<TurnRecord> stored = turns.subList(0, i + 1);
            SummaryRefreshes.Plan plan = SummaryRefreshes.plan(
                    rows(stored),
                    turns.get(i).turnId(),
                    commit.droppedTurns(),
                    summary == null ? null : summary.lastSequence(),
                    summary == null ? null : summary.lastTurnId());
            if (plan == null) {
                continue;
            }
            List<TurnRecord> added = SummaryRefreshes.toAdd(stored, plan);
            String text = plan.extend() ? summary.text() : null;
            for (List<TurnRecord> call : SummaryPrompt.calls(added, COUNTER)) {
                text = new ExtractiveSummarizer(COUNTER).extend(text, call, Stage2Settings.Defaults.MAX_SUMMARY_TOKENS);
            }
            TurnRecord first = plan.extend() ? null : added.get(0);
            summary = new HistorySummary(
                    0,
                    first == null ? summary.firstTurnId() : first.turnId(),
                    plan.throughTurnId(),
                    first == null ? summary.firstSequence() : first.sequence(),
                    plan.throughSequence(),
                    (plan.extend() ? summary.turnCount() : 0) + added.size(),
                    text,
                    COUNTER.count(text),
                    COUNTER.name(),
                    SummaryMethod.EXTRACTIVE,
                    (summary == null ? 0 : summary.refreshes()) + 1,
                    added.size(),
                    false,
                    T0);
            refreshes++;
        }
        return new Replay(summary, refreshes);
    }

    private static ConversationContext render(
            ConversationRendering rendering,
            List<TurnRecord> turns,
            HistorySummary summary,
            ResolvedBudget budget,
            ContextRequest request) {
        return rendering.render(
                new ConversationRendering.Stored(1L, null, Map.of()),
                (maxTurns, current, includeOthers) -> {
                    HistoryWindow.Window window = HistoryWindow.plan(rows(turns), maxTurns, current, includeOthers);
                    List<TurnRecord> tail = new ArrayList<>();
                    for (TurnRecord t : turns) {
                        if (t.sequence() > window.afterSequence()) {
                            tail.add(t);
                        }
                    }
                    return new ConversationRendering.Tail(tail, window.olderCandidateIds());
                },
                () -> summary,
                omissions -> true,
                budget,
                request);
    }

    private static List<HistoryWindow.Row> rows(List<TurnRecord> turns) {
        List<HistoryWindow.Row> rows = new ArrayList<>(turns.size());
        for (TurnRecord t : turns) {
            rows.add(new HistoryWindow.Row(
                    t.sequence(), t.turnId(), t.chatbotId(), !HistoryRenderer.rendersSomething(t)));
        }
        return rows;
    }

    /** The turns of each conversation: utterance + the next speaker's reply in the same session, as the import does. */
    private static Map<String, Conversation> conversations(Path file) throws IOException {
        Map<String, List<JsonNode>> byConversation = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                JsonNode u = JSON.readTree(line);
                byConversation
                        .computeIfAbsent(u.get("conv_id").asText(), k -> new ArrayList<>())
                        .add(u);
            }
        }
        Map<String, Conversation> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<JsonNode>> e : byConversation.entrySet()) {
            List<JsonNode> us = e.getValue();
            List<TurnRecord> turns = new ArrayList<>();
            Map<String, Utterance> byDia = new HashMap<>();
            int i = 0;
            while (i < us.size()) {
                JsonNode user = us.get(i);
                JsonNode reply = i + 1 < us.size()
                                && us.get(i + 1).get("session_index").asInt()
                                        == user.get("session_index").asInt()
                                && !us.get(i + 1)
                                        .get("speaker")
                                        .asText()
                                        .equals(user.get("speaker").asText())
                        ? us.get(i + 1)
                        : null;
                String turnId = e.getKey() + ":" + user.get("dia_id").asText();
                String userText = user.get("text").asText();
                String replyText = reply == null ? "" : reply.get("text").asText();
                long seq = turns.size() + 1;
                TurnRecord t = TurnRecord.of(turnId, userText, replyText)
                        .withIdentity(turnId, seq, e.getKey(), T0.plusSeconds(seq), null, TurnState.RAW, 2);
                int u = COUNTER.count(userText);
                int a = COUNTER.count(replyText);
                turns.add(t.withTokenCount(new TokenCount(u, a, 0, u + a, COUNTER.name())));
                byDia.put(
                        user.get("dia_id").asText(),
                        new Utterance(user.get("dia_id").asText(), userText, turnId));
                if (reply != null) {
                    byDia.put(
                            reply.get("dia_id").asText(),
                            new Utterance(reply.get("dia_id").asText(), replyText, turnId));
                }
                i += reply == null ? 1 : 2;
            }
            out.put(e.getKey(), new Conversation(e.getKey(), turns, byDia));
        }
        return out;
    }

    private static List<Question> questions(Path file) throws IOException {
        List<Question> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode q = JSON.readTree(line);
            List<String> evidence = new ArrayList<>();
            q.get("evidence").forEach(n -> evidence.add(n.asText()));
            out.add(new Question(q.get("conv_id").asText(), q.get("category").asInt(), evidence));
        }
        return out;
    }
}
