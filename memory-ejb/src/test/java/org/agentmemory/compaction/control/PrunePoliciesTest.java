package org.agentmemory.compaction.control;

import static org.agentmemory.compaction.control.Turns.offloaded;
import static org.agentmemory.compaction.control.Turns.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.omission.control.ContentIds;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

class PrunePoliciesTest {

    private static final ActivityLimit LIMIT = ActivityLimit.DEFAULT;
    private static final PrunePolicies POLICIES = PrunePolicies.builtIn();

    private static PrunedLine prune(ToolInvocationRecord invocation) {
        return PrunePolicies.pruneLine(POLICIES.resolve(invocation.toolName(), null), invocation, "turn-1", LIMIT);
    }

    @Test
    void defaultPolicyOmitsANewOutputWithAFreshContentId() {
        PrunedLine pruned = prune(tool("my_tool", Map.of("a", 1), "hello"));
        String id = ContentIds.contentId("hello");

        assertThat(pruned.line())
                .isEqualTo("- my_tool ok in={\"a\":1} <tool-output-omitted tool=\"my_tool\" chars=\"5\" id=\"" + id
                        + "\"/>");
        assertThat(pruned.omission()).isEqualTo(new PendingOmission(id, "hello", "turn-1", "my_tool", "output"));
        assertThat(pruned.notice()).isTrue();
    }

    @Test
    void anOffloadedOutputReusesTheStoredIdAndOriginalLengthWithoutANewOmission() {
        PrunedLine pruned = prune(
                offloaded("my_tool", Map.of(), "preview \u2026(+9,800 chars)", 10_000, "om_00000000000000aa", "wm:1"));

        assertThat(pruned.line())
                .isEqualTo(
                        "- my_tool ok in={} <tool-output-omitted tool=\"my_tool\" chars=\"10000\" id=\"om_00000000000000aa\" wm=\"wm:1\"/>");
        assertThat(pruned.omission()).isNull();
    }

    @Test
    void anOffloadedOutputWithoutItsOriginalLengthCountsThePreviewInCodePoints() {
        PrunedLine pruned =
                prune(offloaded("my_tool", Map.of(), "\uD83D\uDE00\uD83D\uDE00", 0, "om_00000000000000aa", null));
        ToolInvocationRecord noChars = new ToolInvocationRecord(
                "my_tool",
                Map.of(),
                "\uD83D\uDE00\uD83D\uDE00",
                InvocationStatus.COMPLETED,
                null,
                null,
                null,
                Map.of("output", "om_00000000000000aa"),
                null);

        assertThat(pruned.line()).contains("chars=\"0\"");
        assertThat(prune(noChars).line()).contains("chars=\"2\"");
    }

    @Test
    void noOutputMeansNoNoticeAndErrorsAreNeverOmitted() {
        PrunedLine pruned = prune(Turns.failed("my_tool", Map.of(), "Traceback ... ValueError: bad"));

        assertThat(pruned.line()).isEqualTo("- my_tool error in={} error=Traceback ... ValueError: bad");
        assertThat(pruned.notice()).isFalse();
        assertThat(pruned.omission()).isNull();
    }

    @Test
    void fileWriteAndFileReadKeepOnlyThePathKeys() {
        PrunedLine write = prune(tool("write_file", Map.of("path", "a.txt", "content", "x".repeat(50)), "ok"));
        PrunedLine read = prune(tool("read_file", Map.of("file_path", "b.txt", "offset", 3), "text"));
        PrunedLine nothing = prune(tool("save_file", Map.of("content", "x"), "ok"));

        assertThat(write.line()).startsWith("- write_file ok in={\"path\":\"a.txt\"} <tool-output-omitted");
        assertThat(read.line()).startsWith("- read_file ok in={\"file_path\":\"b.txt\"} <tool-output-omitted");
        assertThat(nothing.line()).startsWith("- save_file ok in={} <tool-output-omitted");
    }

    @Test
    void shellKeepsTheCommandAndReportsTheFirstPresentExitKey() {
        PrunedLine pruned = prune(new ToolInvocationRecord(
                "bash",
                Map.of("command", "ls", "timeout", 5),
                "{\"exitcode\":3,\"exit_code\":0,\"stdout\":\"x\"}",
                InvocationStatus.ERROR,
                "failed",
                null,
                null,
                null,
                null));

        assertThat(pruned.line())
                .startsWith("- bash error in={\"command\":\"ls\"} <tool-output-omitted tool=\"bash\"")
                .endsWith("/> exit=0 error=failed");
    }

    @Test
    void shellPrintsExitValuesTheWayThePythonReferenceDoes() {
        assertThat(BuiltInPolicy.SHELL.extraParts("{\"returncode\": 2}")).containsExactly("exit=2");
        assertThat(BuiltInPolicy.SHELL.extraParts("{\"exit\": true}")).containsExactly("exit=True");
        assertThat(BuiltInPolicy.SHELL.extraParts("{\"exit\": null}")).containsExactly("exit=None");
        assertThat(BuiltInPolicy.SHELL.extraParts("{\"exit\": \"sig\"}")).containsExactly("exit=sig");
        assertThat(BuiltInPolicy.SHELL.extraParts("[0]")).isEmpty();
        assertThat(BuiltInPolicy.SHELL.extraParts("exit code 0")).isEmpty();
        assertThat(BuiltInPolicy.SHELL.extraParts(null)).isEmpty();
    }

    @Test
    void subAgentKeepsTheFirstLineOfTaskAndPrompt() {
        PrunedLine pruned =
                prune(tool("delegate", Map.of("task", "Find bugs\nin module x", "prompt", 7, "model", "m"), "done"));

        assertThat(pruned.line())
                .startsWith("- delegate ok in={\"prompt\":7,\"task\":\"Find bugs\"} <tool-output-omitted");
        assertThat(BuiltInPolicy.firstLine("a\r\nb")).isEqualTo("a");
        assertThat(BuiltInPolicy.firstLine("\u2028b")).isEmpty();
        assertThat(BuiltInPolicy.firstLine("single")).isEqualTo("single");
    }

    @Test
    void queryCountsRowsOrHits() {
        assertThat(BuiltInPolicy.QUERY.extraParts("[1,2,3]")).containsExactly("rows=3");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"rows\":[1,2]}")).containsExactly("rows=2");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"rows\":\"n/a\",\"results\":[1]}"))
                .containsExactly("rows=1");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"hits\":[1,2,3,4]}")).containsExactly("hits=4");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"hits\":42}")).containsExactly("hits=42");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"hits\":1.50}")).containsExactly("hits=1.50");
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"hits\":null}")).isEmpty();
        assertThat(BuiltInPolicy.QUERY.extraParts("{\"total\":3}")).isEmpty();

        PrunedLine pruned = prune(tool("web_search", Map.of("query", "jakarta", "limit", 5), "[{\"u\":1},{\"u\":2}]"));
        assertThat(pruned.line())
                .startsWith("- web_search ok in={\"query\":\"jakarta\"} <tool-output-omitted")
                .endsWith("/> rows=2");
    }

    @Test
    void resolvesPerCallThenConfiguredThenAliasThenDefault() {
        PrunePolicies configured = PrunePolicies.configured(Map.of("bash", "default", "my_sql", "query"));
        PrunePolicy custom = new PrunePolicy() {
            @Override
            public String policyName() {
                return "custom";
            }
        };

        assertThat(configured.resolve("bash", Map.of("bash", custom))).isSameAs(custom);
        assertThat(configured.resolve("bash", null)).isEqualTo(BuiltInPolicy.DEFAULT);
        assertThat(configured.resolve("my_sql", Map.of())).isEqualTo(BuiltInPolicy.QUERY);
        assertThat(configured.resolve("shell", null)).isEqualTo(BuiltInPolicy.SHELL);
        assertThat(configured.resolve("Shell", null)).isEqualTo(BuiltInPolicy.DEFAULT);
        assertThat(configured.resolve("spawn_agent", null)).isEqualTo(BuiltInPolicy.SUB_AGENT);
        assertThat(PrunePolicies.builtIn().resolve("fetch_url", null).policyName())
                .isEqualTo("query");
    }

    @Test
    void rejectsAnUnknownConfiguredPolicyNamingToolAndValidNames() {
        assertThatThrownBy(() -> PrunePolicies.configured(Map.of("bash", "shel")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Prune policy of tool 'bash': Unknown prune policy 'shel'; valid values are default, "
                        + "file_write, file_read, shell, sub_agent and query");
    }

    @Test
    void noticeAttributesAreEscapedSoTheMarkupParsesBackToTheOriginalValues() throws Exception {
        String toolName = "we\"ird<tool>&'x'";
        String wmKey = "k=\"1\" & <2>";
        ToolInvocationRecord invocation = new ToolInvocationRecord(
                toolName, Map.of(), "payload", InvocationStatus.COMPLETED, null, null, null, null, wmKey);

        String line = prune(invocation).line();
        Matcher notice = Pattern.compile("<tool-output-omitted [^>]*/>").matcher(line);

        assertThat(notice.find()).isTrue();
        Element element = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new InputSource(new StringReader(notice.group())))
                .getDocumentElement();
        assertThat(element.getTagName()).isEqualTo("tool-output-omitted");
        assertThat(element.getAttribute("tool")).isEqualTo(toolName);
        assertThat(element.getAttribute("wm")).isEqualTo(wmKey);
        assertThat(element.getAttribute("chars")).isEqualTo("7");
        assertThat(element.getAttribute("id")).isEqualTo(ContentIds.contentId("payload"));
        assertThat(PrunePolicies.escapeAttribute("a&b<c>d\"e'f")).isEqualTo("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    }

    @Test
    void extraPartsOfACustomPolicyComeBeforeTheError() {
        PrunePolicy custom = new PrunePolicy() {
            @Override
            public String policyName() {
                return "custom";
            }

            @Override
            public List<String> extraParts(String output) {
                return List.of("", "size=" + output.length());
            }
        };
        ToolInvocationRecord invocation =
                new ToolInvocationRecord("x", Map.of(), "abc", InvocationStatus.ERROR, "e", null, null, null, null);

        assertThat(PrunePolicies.pruneLine(custom, invocation, "t", LIMIT).line())
                .endsWith("/> size=3 error=e");
    }
}
