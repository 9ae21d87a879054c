package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.it.readme.MinimalAgentLoop;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every command of the README, and of the API tour it links to ({@code docs/rest-api.md}), runs against the H2
 * test server: each {@code ```bash} block is run on its own by {@code bash} under {@code set -euo pipefail}, with
 * the documented base {@code http://localhost:8080} replaced by the test server's, and must exit with 0. The blocks
 * check their own statuses ({@code curl -f}, or {@code -w '%{http_code}'} compared with the documented one), which
 * this test enforces for every {@code curl} it runs. A block fenced {@code ```bash no-test} (the {@code mvn}
 * commands) is skipped and listed. The README's Java excerpt must be part of {@link MinimalAgentLoop} (Javadoc
 * aside), which this test also runs.
 *
 * <p>The blocks create their own users and conversations, so they depend on no other test's data and delete
 * nothing they did not create.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it runs the README against the WildFly server the README documents.
 */
class ReadmeCommandsIT {

    private static final Path README = Path.of(System.getProperty("it.readme", "../../README.md"))
            .toAbsolutePath()
            .normalize();
    private static final Path ROOT = README.getParent();
    /** The documents whose commands are run, in this order. */
    private static final List<Path> DOCUMENTS = List.of(README, ROOT.resolve("docs/rest-api.md"));

    private static final Path JAVA_EXAMPLE =
            ROOT.resolve("memory-it/suite/src/test/java/org/agentmemory/it/readme/MinimalAgentLoop.java");

    /** The server the documents address: the one {@code mvn package -Prun} starts. */
    private static final String DOCUMENTED_BASE = "http://localhost:8080";

    /** The development token of the server {@code mvn package -Prun} starts, as the README reads it. */
    private static final String DOCUMENTED_TOKEN =
            "memory-ear/target/wildfly-39.0.1.Final/standalone/data/agent-memory/security/dev-token.jwt";

    private static final String NO_TEST = "no-test";
    private static final Duration BLOCK_TIMEOUT = Duration.ofMinutes(3);
    /** A {@code curl} whose options include {@code -f}/{@code --fail} (fails on 4xx/5xx) or {@code -w} (prints the status). */
    private static final Pattern CHECKED_CURL =
            Pattern.compile("(^|\\s)(-[A-Za-z]*[fw][A-Za-z]*|--fail|--write-out)(\\s|$)");

    private static final Pattern CURL = Pattern.compile("(^|[\\s(|;&])curl\\s");

    private static final List<String> RUN = Collections.synchronizedList(new ArrayList<>());
    private static final List<String> SKIPPED = Collections.synchronizedList(new ArrayList<>());

    /** A fenced code block: where it starts (the fence's line), its info string and its text. */
    record Block(Path file, int line, String info, String code) {
        String language() {
            String[] words = info.strip().split("\\s+");
            return words[0];
        }

        boolean skipped() {
            return List.of(info.strip().split("\\s+")).contains(NO_TEST);
        }

        String name() {
            return ROOT.relativize(file) + ":" + line;
        }

        String firstCommand() {
            return code.lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .findFirst()
                    .orElse("");
        }
    }

    @TestFactory
    Stream<DynamicTest> everyBashBlockRunsAgainstTheTestServer() throws IOException {
        List<Block> bash = new ArrayList<>();
        for (Path document : DOCUMENTS) {
            for (Block block : blocks(document)) {
                assertThat(block.language())
                        .as(block.name() + ": shell commands go in ```bash blocks, which this test runs")
                        .isNotIn("sh", "shell", "console", "zsh", "shell-session");
                if (block.language().equals("bash")) {
                    bash.add(block);
                }
            }
        }
        assertThat(bash)
                .as("bash blocks of " + DOCUMENTS)
                .filteredOn(b -> !b.skipped())
                .isNotEmpty();
        return bash.stream()
                .map(b -> DynamicTest.dynamicTest(b.name() + (b.skipped() ? " (" + NO_TEST + ")" : ""), () -> run(b)));
    }

    @Test
    void theReadmesJavaExampleIsPartOfTheCompiledOne() throws IOException {
        List<Block> java =
                blocks(README).stream().filter(b -> b.language().equals("java")).toList();
        assertThat(java).as("the README's Java example").isNotEmpty();
        List<String> source = stripped(Files.readString(JAVA_EXAMPLE, StandardCharsets.UTF_8));
        for (Block block : java) {
            List<String> excerpt = stripped(block.code());
            assertThat(Collections.indexOfSubList(source, excerpt))
                    .as(block.name() + " must be a verbatim excerpt (indentation and Javadoc aside) of "
                            + ROOT.relativize(JAVA_EXAMPLE))
                    .isNotNegative();
        }
    }

    @Test
    void theJavaAgentLoopRunsAgainstTheTestServer() throws Exception {
        Api api = Api.h2();
        MinimalAgentLoop loop = new MinimalAgentLoop(
                "remote+" + api.base(),
                org.agentmemory.it.support.RemoteClient.ITEST.name(),
                org.agentmemory.it.support.RemoteClient.ITEST.password());
        ConversationKey key = ConversationKey.of("readme-java", "java-" + UUID.randomUUID(), "s1");
        List<Integer> historySizes = new ArrayList<>();
        MinimalAgentLoop.Model model = (history, userMessage) -> {
            historySizes.add(history.size());
            return new MinimalAgentLoop.Reply(
                    "Answer to " + userMessage,
                    List.of(ToolInvocationRecord.of("weather", Map.of("city", "Paris"), "{\"temp\": 18}")));
        };

        AppendedTurn first = loop.round(key, "Weather in Paris?", model);
        AppendedTurn second = loop.round(key, "And tomorrow?", model);

        assertThat(historySizes)
                .as("the second round sees the first as a user and an assistant message")
                .containsExactly(0, 2);
        assertThat(second.conversationId()).isEqualTo(first.conversationId());
        assertThat(List.of(first.turn().sequence(), second.turn().sequence())).containsExactly(1L, 2L);
        JsonNode stored = api.get("/conversations/" + first.conversationId()).json();
        assertThat(stored.get("turns")).hasSize(2);
        assertThat(stored.at("/turns/1/userMessage").asText()).isEqualTo("And tomorrow?");
        assertThat(stored.at("/turns/1/toolInvocations/0/toolName").asText()).isEqualTo("weather");
        assertThat(stored.at("/metadata/compaction").isMissingNode())
                .as("the commits were folded into the metadata: " + stored.get("metadata"))
                .isFalse();
    }

    @AfterAll
    static void report() {
        System.out.println("ReadmeCommandsIT: " + RUN.size() + " bash block(s) run: " + RUN);
        System.out.println(
                "ReadmeCommandsIT: " + SKIPPED.size() + " bash block(s) skipped (" + NO_TEST + "): " + SKIPPED);
    }

    private static void run(Block block) throws IOException, InterruptedException {
        if (block.skipped()) {
            SKIPPED.add(block.name() + " `" + block.firstCommand() + "`");
            System.out.println("SKIPPED " + block.name() + " (" + NO_TEST + "): " + block.firstCommand());
            Assumptions.abort("marked " + NO_TEST + ": " + block.firstCommand());
        }
        assertEveryCurlChecksItsStatus(block);
        String base = Api.h2().base();
        String script = "set -euo pipefail\n"
                + block.code()
                        .replace(DOCUMENTED_BASE, base)
                        .replace(
                                DOCUMENTED_TOKEN,
                                Api.h2().keys().resolve("dev-token.jwt").toString());
        assertThat(script)
                .as(block.name() + " must address the service only through " + DOCUMENTED_BASE)
                .doesNotContain("localhost:9990")
                .doesNotContain("localhost:8080");

        Path dir = Files.createTempDirectory("readme-block");
        Path output = dir.resolve("output.txt");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // The blocks after the README's quickstart use the token it exported.
        builder.environment().put("TOKEN", Api.h2().token());
        Process process = builder.start();
        boolean ended = process.waitFor(BLOCK_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println("---- " + block.name() + " against " + base + "\n" + printed + "---- exit "
                + (ended ? process.exitValue() : "timeout"));
        assertThat(ended)
                .as(block.name() + " did not end within " + BLOCK_TIMEOUT + "; it printed:\n" + printed)
                .isTrue();
        assertThat(process.exitValue())
                .as(block.name() + " failed; it printed:\n" + printed)
                .isZero();
        RUN.add(block.name());
    }

    /** Every {@code curl} of a run block fails the block on an undocumented status: {@code -f} or {@code -w}. */
    private static void assertEveryCurlChecksItsStatus(Block block) {
        for (String line : block.code().lines().toList()) {
            String command = line.strip();
            if (command.startsWith("#")) {
                continue;
            }
            int comment = command.indexOf(" # ");
            if (comment >= 0) {
                command = command.substring(0, comment);
            }
            var curl = CURL.matcher(command);
            while (curl.find()) {
                String options = command.substring(curl.end());
                assertThat(CHECKED_CURL.matcher(options).find())
                        .as(block.name() + ": curl without -f or -w '%{http_code}' would let an error status pass: "
                                + line)
                        .isTrue();
            }
        }
    }

    /** The fenced code blocks of a Markdown document (``` fences at the start of a line), in order. */
    static List<Block> blocks(Path document) throws IOException {
        List<String> lines = Files.readAllLines(document, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("```")) {
                continue;
            }
            String info = line.substring(3);
            StringBuilder code = new StringBuilder();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).startsWith("```")) {
                code.append(lines.get(j)).append('\n');
                j++;
            }
            assertThat(j).as(document + ":" + (i + 1) + ": unclosed code block").isLessThan(lines.size());
            blocks.add(new Block(document, i + 1, info, code.toString()));
            i = j;
        }
        return blocks;
    }

    /** The lines of a Java text without indentation, blank lines and Javadoc (the README leaves Javadoc out). */
    private static List<String> stripped(String text) {
        return text.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("/**") && !l.startsWith("*"))
                .toList();
    }
}
