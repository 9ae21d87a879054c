package org.agentmemory.bench;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.TokenWindowChatMemory;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.Compactor;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.PrunePolicies;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;

/**
 * Read-path benchmark: fitting a 1,000-turn history with tool invocations into a token budget, in process.
 *
 * <p>Run (from the repository root; the first command builds, the second runs):
 * <pre>
 * mvn -q -pl memory-api,memory-ejb,memory-bench -am package -DskipTests
 * java -cp "memory-bench/target/memory-bench-0.1.0-SNAPSHOT.jar:$(cat memory-bench/target/classpath.txt)" \
 *      org.agentmemory.bench.CompactionBenchmark
 * </pre>
 * ({@code memory-bench/target/classpath.txt} is written by the {@code package} phase of memory-bench.)
 *
 * <p>What is measured, over the same history and the same budget H (tokens of o200k_base, counted by the same
 * jtokkit counter on both sides):
 * <ul>
 *   <li><b>agent-memory</b>: {@link ContextWindowFitter#fit}: the spec §8.5 walk over the last 30 turns, prune
 *       policies, rendering and the exact count of the rendered messages (stored per-turn counts, as the write
 *       path stores them);
 *   <li><b>agent-memory, no stored counts</b>: the same with every turn counted on the fly;
 *   <li><b>LangChain4j TokenWindowChatMemory</b> 1.19.0: {@code messages()} of a memory whose store holds the
 *       2,000 uncompacted messages (user text; assistant text + every tool output in full), evicting the oldest
 *       messages until the rest fits H, with a {@link TokenCountEstimator} over the same counter;
 *   <li><b>LangChain4j, store of the last 30 turns</b>: the same over only the 60 messages of the turns our
 *       {@code maxTurns} ceiling considers, to compare the per-call work on equal input.
 * </ul>
 * Each is warmed up, then timed per call; the report gives p50, p99, mean and what was kept.
 */
public final class CompactionBenchmark {

    private static final int TURNS = 1000;
    private static final int SYSTEM_PROMPT_TOKENS = 1200;
    private static final int USER_PROMPT_TOKENS = 150;
    private static final String[] WORDS =
            ("the service stores every turn of a conversation with its tool invocations and "
                            + "renders a compacted history for the model under a strict token budget while keeping recent work verbatim "
                            + "and older outputs recoverable by content id deployment queue order invoice customer shipment latency "
                            + "database index migration schema rollback retry timeout cache eviction")
                    .split(" ");
    private static final String[] TOOLS = {
        "bash", "read_file", "web_search", "query_database", "write_file", "lookup_order"
    };

    private CompactionBenchmark() {}

    /**
     * @param args optional: iterations of the agent-memory runs (default 2000) and of the LangChain4j run
     *             (default 100)
     */
    public static void main(String[] args) {
        int ours = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int theirs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        TokenCounter counter = TokenCounters.defaultCounter();
        List<TurnRecord> stored = history(counter, true);
        List<TurnRecord> uncounted = history(counter, false);
        ContextBudget budget = ContextBudget.ofWindow(128_000);
        int historyBudget = ContextWindowFitter.historyBudget(budget, SYSTEM_PROMPT_TOKENS, USER_PROMPT_TOKENS);
        ContextWindowFitter fitter = new ContextWindowFitter(new Compactor(counter, PrunePolicies.builtIn()));
        CompactionOptions options = CompactionOptions.defaults().withCurrentChatbot("agent", true);

        List<ChatMessage> messages = uncompactedMessages(stored);
        InMemoryChatMemoryStore store = new InMemoryChatMemoryStore();
        store.updateMessages("session", messages);
        store.updateMessages(
                "last-30-turns", messages.subList(messages.size() - 2 * budget.maxTurns(), messages.size()));
        TokenCountEstimator estimator = new CounterEstimator(counter);

        FittedHistory[] fitted = new FittedHistory[1];
        Stats withCounts = time(
                ours, () -> fitted[0] = fitter.fit(stored, budget, SYSTEM_PROMPT_TOKENS, USER_PROMPT_TOKENS, options));
        Stats noCounts =
                time(ours, () -> fitter.fit(uncounted, budget, SYSTEM_PROMPT_TOKENS, USER_PROMPT_TOKENS, options));
        List<List<ChatMessage>> window = new ArrayList<>(List.of(List.of()));
        Stats langchain = time(
                theirs,
                () -> window.set(
                        0,
                        TokenWindowChatMemory.builder()
                                .id("session")
                                .maxTokens(historyBudget, estimator)
                                .chatMemoryStore(store)
                                .build()
                                .messages()));
        List<List<ChatMessage>> recent = new ArrayList<>(List.of(List.of()));
        Stats langchainRecent = time(
                ours,
                () -> recent.set(
                        0,
                        TokenWindowChatMemory.builder()
                                .id("last-30-turns")
                                .maxTokens(historyBudget, estimator)
                                .chatMemoryStore(store)
                                .build()
                                .messages()));

        long inputChars =
                messages.stream().mapToLong(message -> text(message).length()).sum();
        System.out.printf(
                Locale.ROOT,
                "Read-path benchmark: %d turns (%d messages, %,d chars uncompacted), window 128000, "
                        + "history budget H = %d tokens (o200k_base)%n%n",
                TURNS,
                messages.size(),
                inputChars,
                historyBudget);
        System.out.printf(
                Locale.ROOT,
                "%-40s %10s %10s %10s %10s %10s %12s%n",
                "implementation",
                "calls",
                "p50 ms",
                "p99 ms",
                "mean ms",
                "messages",
                "tokens<=H");
        FittedHistory result = fitted[0];
        row("agent-memory ContextWindowFitter", withCounts, result.messages().size(), result.tokensUsed());
        row("agent-memory, no stored counts", noCounts, result.messages().size(), result.tokensUsed());
        row(
                "LangChain4j TokenWindowChatMemory",
                langchain,
                window.get(0).size(),
                estimator.estimateTokenCountInMessages(window.get(0)));
        row(
                "LangChain4j, store of the last 30 turns",
                langchainRecent,
                recent.get(0).size(),
                estimator.estimateTokenCountInMessages(recent.get(0)));
        System.out.printf(
                Locale.ROOT,
                "%nagent-memory: outcome %s, %d views (%d turns dropped), %d omissions, stage2Needed %s%n",
                result.outcome(),
                result.views().size(),
                result.droppedTurnIds().size(),
                result.omissions().size(),
                result.stage2Needed());
        System.out.printf(
                Locale.ROOT,
                "LangChain4j: keeps the newest %d of %d messages verbatim; first kept is a %s message%n",
                window.get(0).size(),
                messages.size(),
                window.get(0).isEmpty() ? "-" : window.get(0).get(0).type());
        System.out.printf(
                Locale.ROOT, "p50 ratio LangChain4j / agent-memory = %.1f%n", langchain.p50() / withCounts.p50());
    }

    private static void row(String name, Stats stats, int messages, int tokens) {
        System.out.printf(
                Locale.ROOT,
                "%-40s %10d %10.3f %10.3f %10.3f %10d %12d%n",
                name,
                stats.calls(),
                stats.p50(),
                stats.p99(),
                stats.mean(),
                messages,
                tokens);
    }

    record Stats(int calls, double p50, double p99, double mean) {}

    private static Stats time(int iterations, Runnable call) {
        int warmup = Math.max(20, iterations / 4);
        for (int i = 0; i < warmup; i++) {
            call.run();
        }
        double[] millis = new double[iterations];
        double total = 0;
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            call.run();
            millis[i] = (System.nanoTime() - start) / 1e6;
            total += millis[i];
        }
        Arrays.sort(millis);
        return new Stats(iterations, percentile(millis, 0.50), percentile(millis, 0.99), total / iterations);
    }

    private static double percentile(double[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** A deterministic history: varied texts, 40 % of turns with 1-5 tool invocations, some big outputs and errors. */
    private static List<TurnRecord> history(TokenCounter counter, boolean storeCounts) {
        Random random = new Random(42);
        List<TurnRecord> turns = new ArrayList<>(TURNS);
        for (int i = 0; i < TURNS; i++) {
            String user = sentence(random, 10 + random.nextInt(60));
            String assistant = sentence(random, 30 + random.nextInt(250));
            List<ToolInvocationRecord> invocations = new ArrayList<>();
            if (random.nextInt(10) < 4) {
                for (int k = 1 + random.nextInt(5); k > 0; k--) {
                    invocations.add(invocation(random));
                }
            }
            TurnRecord turn = TurnRecord.of("turn-" + i, user, assistant)
                    .withChatbotId("agent")
                    .withToolInvocations(invocations);
            if (storeCounts) {
                int tools = 0;
                for (ToolInvocationRecord invocation : invocations) {
                    tools += counter.count(CanonicalJson.write(invocation.input()))
                            + counter.count(invocation.output())
                            + counter.count(invocation.error());
                }
                int u = counter.count(user);
                int a = counter.count(assistant);
                turn = turn.withTokenCount(new TokenCount(u, a, tools, u + a + tools, counter.name()));
            }
            turns.add(turn);
        }
        return turns;
    }

    private static ToolInvocationRecord invocation(Random random) {
        String tool = TOOLS[random.nextInt(TOOLS.length)];
        Map<String, Object> input = new LinkedHashMap<>();
        input.put(
                switch (tool) {
                    case "bash" -> "command";
                    case "read_file", "write_file" -> "path";
                    default -> "query";
                },
                sentence(random, 3 + random.nextInt(8)));
        input.put("limit", random.nextInt(100));
        String output = random.nextInt(8) == 0
                ? sentence(random, 1500 + random.nextInt(3000))
                : sentence(random, 20 + random.nextInt(300));
        if (tool.equals("bash")) {
            output = "{\"exit_code\":" + random.nextInt(2) + ",\"stdout\":\"" + output + "\"}";
        }
        boolean failed = random.nextInt(15) == 0;
        return new ToolInvocationRecord(
                tool,
                input,
                output,
                failed ? InvocationStatus.ERROR : InvocationStatus.COMPLETED,
                failed ? "TimeoutError: " + sentence(random, 8) : null,
                (long) random.nextInt(20_000),
                null,
                null,
                null);
    }

    private static String sentence(Random random, int words) {
        StringBuilder text = new StringBuilder(words * 7);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                text.append(w % 17 == 0 ? ".\n" : " ");
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    /** Every turn as a user message and an assistant message carrying every tool output in full. */
    private static List<ChatMessage> uncompactedMessages(List<TurnRecord> turns) {
        List<ChatMessage> messages = new ArrayList<>(turns.size() * 2);
        for (TurnRecord turn : turns) {
            StringBuilder assistant = new StringBuilder(turn.assistantResponse());
            if (!turn.toolInvocations().isEmpty()) {
                assistant.append("\n\n<tool-activity>");
                for (ToolInvocationRecord invocation : turn.toolInvocations()) {
                    assistant
                            .append("\n- ")
                            .append(invocation.toolName())
                            .append(" in=")
                            .append(CanonicalJson.write(invocation.input()))
                            .append(" out=")
                            .append(invocation.output());
                    if (invocation.error() != null) {
                        assistant.append(" error=").append(invocation.error());
                    }
                }
                assistant.append("\n</tool-activity>");
            }
            messages.add(UserMessage.from(turn.userMessage()));
            messages.add(AiMessage.from(assistant.toString()));
        }
        return messages;
    }

    private static String text(ChatMessage message) {
        if (message instanceof UserMessage user) {
            return user.singleText();
        }
        if (message instanceof AiMessage ai) {
            return ai.text() == null ? "" : ai.text();
        }
        if (message instanceof SystemMessage system) {
            return system.text();
        }
        return "";
    }

    /** LangChain4j's estimator over our counter: Σ count(text), no per-message overhead, as our fitter counts. */
    static final class CounterEstimator implements TokenCountEstimator {
        private final TokenCounter counter;

        CounterEstimator(TokenCounter counter) {
            this.counter = counter;
        }

        @Override
        public int estimateTokenCountInText(String text) {
            return counter.count(text);
        }

        @Override
        public int estimateTokenCountInMessage(ChatMessage message) {
            return counter.count(text(message));
        }

        @Override
        public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
            int total = 0;
            for (ChatMessage message : messages) {
                total += estimateTokenCountInMessage(message);
            }
            return total;
        }
    }
}
