package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.omission.control.Previews;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random histories through {@link ContextWindowFitter}, each checked for the rendering and
 * budget guarantees. A failure names its seed: rerun that one history with {@link #check(long)}.
 */
class FitterPropertyTest {

    private static final long BASE_SEED = 20_261_130L;
    private static final int HISTORIES = 2000;
    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final PrunePolicies POLICIES = PrunePolicies.configured(Map.of("custom_fetch", "query"));
    private static final ContextWindowFitter FITTER = new ContextWindowFitter(new Compactor(COUNTER, POLICIES));
    private static final Pattern MORE = Pattern.compile("\u2026 \\+\\d+ more");
    private static final String[] TOOL_NAMES = {
        "bash",
        "read_file",
        "write_file",
        "web_search",
        "delegate",
        "custom_fetch",
        "lookup",
        "we\"ird<&>'tool",
        "query_database"
    };
    private static final String[] KEYS = {"path", "command", "query", "task", "prompt", "url", "limit", "flag"};

    @Test
    void everyRandomHistoryRendersAlternatingNonBlankMessagesWithinBudget() {
        Map<FittedHistory.Outcome, Integer> outcomes = new java.util.EnumMap<>(FittedHistory.Outcome.class);
        for (int i = 0; i < HISTORIES; i++) {
            long seed = BASE_SEED + i;
            try {
                outcomes.merge(check(seed), 1, Integer::sum);
            } catch (AssertionError | RuntimeException e) {
                fail("history with seed " + seed + " failed: " + e.getMessage(), e);
            }
        }
        // The generator must reach every path of the fitter, or the checks above prove little.
        assertThat(outcomes.keySet()).containsExactlyInAnyOrder(FittedHistory.Outcome.values());
        assertThat(outcomes.values()).allSatisfy(count -> assertThat(count).isGreaterThanOrEqualTo(20));
    }

    private static FittedHistory.Outcome check(long seed) {
        Random random = new Random(seed);
        List<TurnRecord> turns = history(random);
        ContextBudget budget = budget(random);
        int historyTokens = historyTokens(random);
        double calibration = new double[] {1.0, 1.0, 0.5, 1.3, 2.0}[random.nextInt(5)];
        String current = random.nextBoolean() ? "me" : null;
        String boundary = turns.isEmpty() || random.nextInt(3) > 0
                ? null
                : turns.get(random.nextInt(turns.size())).turnId();
        CompactionOptions options = new CompactionOptions(boundary, calibration, current, random.nextInt(4) > 0, null);

        FittedHistory fitted = FITTER.fitWithin(turns, budget, historyTokens, options);

        List<HistoryMessage> messages = fitted.messages();
        long tokens = messages.stream()
                .mapToLong(message -> COUNTER.count(message.content()))
                .sum();
        assertThat(tokens)
                .as("tokens")
                .isEqualTo(fitted.tokensUsed())
                .isLessThanOrEqualTo(historyTokens < 0 ? 0 : historyTokens);
        assertThat(Math.ceil(Math.max(1.0, calibration) * tokens))
                .as("calibrated tokens")
                .isLessThanOrEqualTo(Math.max(0, historyTokens));
        if (!messages.isEmpty()) {
            assertThat(messages.get(0).role()).isEqualTo(HistoryMessage.USER);
            assertThat(messages.get(messages.size() - 1).role()).isEqualTo(HistoryMessage.ASSISTANT);
        }
        for (int m = 0; m < messages.size(); m++) {
            assertThat(messages.get(m).role())
                    .as("role %d", m)
                    .isEqualTo(m % 2 == 0 ? HistoryMessage.USER : HistoryMessage.ASSISTANT);
            assertThat(Texts.isBlank(messages.get(m).content()))
                    .as("blank message %d", m)
                    .isFalse();
        }
        assertThat(messages.isEmpty())
                .isEqualTo(fitted.outcome() == FittedHistory.Outcome.NOTHING_TO_RENDER
                        || fitted.outcome() == FittedHistory.Outcome.BUDGET_TOO_SMALL);

        Map<String, Integer> position = new HashMap<>();
        Map<String, TurnRecord> byId = new HashMap<>();
        for (int t = 0; t < turns.size(); t++) {
            position.put(turns.get(t).turnId(), t);
            byId.put(turns.get(t).turnId(), turns.get(t));
        }
        int previous = -1;
        for (HistoryMessage message : messages) {
            int at = position.get(message.turnId());
            assertThat(at).as("stored order").isGreaterThanOrEqualTo(previous);
            previous = at;
        }
        previous = -1;
        for (TurnView view : fitted.views()) {
            int at = position.get(view.turnId());
            assertThat(at).as("views in stored order").isGreaterThan(previous);
            previous = at;
            assertThat(fitted.droppedTurnIds()).doesNotContain(view.turnId());
            checkToolActivity(view, byId.get(view.turnId()), budget.toolActivityLimit(), fitted);
        }
        if (!fitted.views().isEmpty()) {
            int oldestShown = position.get(fitted.views().get(0).turnId());
            for (String dropped : fitted.droppedTurnIds()) {
                assertThat(position.get(dropped)).as("dropped before shown").isLessThan(oldestShown);
            }
        }
        return fitted.outcome();
    }

    /**
     * Each invocation of a view appears, in order, with its own result line, its omission-notice line, or
     * not at all (only after the shown ones, as {@code … +N more}); a REDUCED view shows no raw output.
     */
    private static void checkToolActivity(TurnView view, TurnRecord turn, ActivityLimit limit, FittedHistory fitted) {
        String suffix = view.assistantSuffix();
        if (turn.toolInvocations().isEmpty()) {
            assertThat(suffix).isEmpty();
            return;
        }
        if (suffix.isEmpty()) {
            assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.REDUCED);
            return;
        }
        String hint =
                "\nOmitted content can be recovered with read_omitted_content(content_id) or read_omitted_content(turn_id=\""
                        + turn.turnId() + "\").";
        String open = "\n\n<tool-activity>\n";
        String close = "\n</tool-activity>";
        String body = suffix.endsWith(hint) ? suffix.substring(0, suffix.length() - hint.length()) : suffix;
        assertThat(body).startsWith(open).endsWith(close);
        String rest = body.substring(open.length(), body.length() - close.length());
        boolean anyNotice = false;
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            PrunedLine pruned = PrunePolicies.pruneLine(
                    POLICIES.resolve(invocation.toolName(), null), invocation, turn.turnId(), limit);
            String raw = ToolActivityLines.line(invocation, invocation.input(), rawBody(invocation, limit), limit);
            String line;
            if (startsWithLine(rest, pruned.line())) {
                line = pruned.line();
                anyNotice |= pruned.notice();
                if (pruned.omission() != null) {
                    assertThat(fitted.omissions())
                            .extracting(PendingOmission::contentId)
                            .contains(pruned.omission().contentId());
                }
            } else if (startsWithLine(rest, raw) && fitted.outcome() != FittedHistory.Outcome.REDUCED) {
                line = raw;
            } else {
                break;
            }
            rest = rest.length() == line.length() ? "" : rest.substring(line.length() + 1);
        }
        assertThat(rest.isEmpty() || MORE.matcher(rest).matches())
                .as("after the shown invocations: %s", rest)
                .isTrue();
        assertThat(suffix.endsWith(hint))
                .as("recovery hint")
                .isEqualTo(anyNotice && view.state() == org.agentmemory.api.compaction.TurnState.PRUNED);
    }

    private static boolean startsWithLine(String text, String line) {
        return text.startsWith(line) && (text.length() == line.length() || text.charAt(line.length()) == '\n');
    }

    private static String rawBody(ToolInvocationRecord invocation, ActivityLimit limit) {
        List<String> parts = new ArrayList<>();
        if (invocation.output() != null && !invocation.output().isEmpty()) {
            parts.add("out=" + CodePoints.truncateWithCount(invocation.output(), limit.maxOutputChars()));
        }
        if (invocation.error() != null && !invocation.error().isEmpty()) {
            parts.add("error=" + invocation.error());
        }
        return String.join(" ", parts);
    }

    private static ContextBudget budget(Random random) {
        int maxTurns = 1 + random.nextInt(40);
        int minVerbatim = 1 + random.nextInt(Math.min(3, maxTurns));
        ActivityLimit limit = random.nextInt(3) == 0
                ? new ActivityLimit(
                        1 + random.nextInt(14), random.nextInt(250), random.nextInt(600), random.nextInt(2000))
                : ActivityLimit.DEFAULT;
        return new ContextBudget(
                12_289 + random.nextInt(200_000),
                8192,
                4096,
                0.8,
                0.6,
                maxTurns,
                random.nextInt(20_000),
                minVerbatim,
                1 + random.nextInt(3000),
                limit);
    }

    private static int historyTokens(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> random.nextInt(25) - 3;
            case 1 -> 25 + random.nextInt(300);
            case 2 -> 300 + random.nextInt(2000);
            case 3 -> 2000 + random.nextInt(20_000);
            default -> random.nextInt(60_000);
        };
    }

    private static List<TurnRecord> history(Random random) {
        int count = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(random.nextInt(8) == 0 ? 60 : 14);
        List<TurnRecord> turns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String assistant = switch (random.nextInt(12)) {
                case 0 -> null;
                case 1 -> "";
                case 2 -> " \n\t\u00a0";
                default -> text(random);
            };
            String user = random.nextInt(15) == 0 ? (random.nextBoolean() ? "" : "  ") : text(random);
            String chatbot = new String[] {null, "me", "me", "other"}[random.nextInt(4)];
            List<ToolInvocationRecord> invocations = new ArrayList<>();
            int tools = random.nextInt(3) == 0 ? random.nextInt(16) : 0;
            for (int k = 0; k < tools; k++) {
                invocations.add(invocation(random));
            }
            turns.add(TurnRecord.of("t" + i, user, assistant)
                    .withChatbotId(chatbot)
                    .withToolInvocations(invocations));
        }
        return turns;
    }

    private static ToolInvocationRecord invocation(Random random) {
        String name = TOOL_NAMES[random.nextInt(TOOL_NAMES.length)];
        Map<String, Object> input = new LinkedHashMap<>();
        for (int k = random.nextInt(4); k > 0; k--) {
            input.put(KEYS[random.nextInt(KEYS.length)], random.nextBoolean() ? text(random) : random.nextInt(100));
        }
        String output = switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "{\"exit_code\":" + random.nextInt(3) + ",\"rows\":[1,2],\"hits\":" + random.nextInt(9) + "}";
            case 3 -> bigText(random);
            default -> text(random);
        };
        String error = random.nextInt(6) == 0 ? "Error: " + text(random) : null;
        InvocationStatus status =
                error != null || random.nextInt(10) == 0 ? InvocationStatus.ERROR : InvocationStatus.COMPLETED;
        Long elapsed = random.nextBoolean() ? (long) random.nextInt(100_000) : null;
        String wmKey = random.nextInt(5) == 0 ? "wm:\"" + random.nextInt(99) + "\"&<x>" : null;
        ToolInvocationRecord invocation =
                new ToolInvocationRecord(name, input, output, status, error, elapsed, null, null, wmKey);
        if (output != null && output.length() > 200 && random.nextInt(3) == 0) {
            invocation = invocation.withOffloadedOutput(
                    Previews.preview(output), CodePoints.length(output), ContentIds.contentId(output));
        }
        return invocation;
    }

    private static String text(Random random) {
        int length = random.nextInt(10) == 0 ? random.nextInt(3000) : random.nextInt(200);
        return randomText(random, length);
    }

    private static String bigText(Random random) {
        return randomText(random, 2000 + random.nextInt(random.nextInt(20) == 0 ? 60_000 : 9000));
    }

    private static String randomText(Random random, int codePoints) {
        StringBuilder text = new StringBuilder(codePoints + 8);
        int style = random.nextInt(4);
        for (int i = 0; i < codePoints; i++) {
            int pick = random.nextInt(100);
            if (pick < 15) {
                text.append(random.nextInt(12) == 0 ? '\n' : ' ');
            } else if (style == 1 && pick < 60) {
                text.appendCodePoint(0x4E00 + random.nextInt(0x5000));
            } else if (style == 2 && pick < 40) {
                text.appendCodePoint(0x1F600 + random.nextInt(0x50));
            } else if (pick < 17) {
                text.append("<&\"'>".charAt(random.nextInt(5)));
            } else {
                text.append((char) ('a' + random.nextInt(26)));
            }
        }
        return text.toString();
    }
}
