package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;
import org.agentmemory.platform.llm.ChatCompletionsJson;
import org.junit.jupiter.api.Test;

class ModelReflectorTest {

    private static final EpisodeInput INPUT = EpisodeInput.builder(
                    Episodes.NS, "fetch the report", "Called fetch({})", EpisodeOutcome.FAILURE)
            .errorMessage("HTTP 429 Too Many Requests")
            .build();
    private static final ReflectionResult HEURISTIC = new ReflectionResult(
            "Action failed with error: HTTP 429 Too Many Requests",
            "Add delay between API calls",
            "Implement backoff or reduce request frequency.");

    @Test
    void aValidModelAnswerIsUsedAndReportedAsModel() {
        List<String> prompts = new ArrayList<>();
        ModelReflector reflector = new ModelReflector(prompt -> {
            prompts.add(prompt);
            return "```json\n{\"reflection\": \"Hit the rate limit.\", \"lesson_learned\": \"Pace report fetches\", "
                    + "\"suggested_action\": \"Wait 1 s between fetches.\"}\n```";
        });
        ReflectionOutcome outcome = reflector.reflect(INPUT);
        assertThat(outcome.source()).isEqualTo(LessonSource.MODEL);
        assertThat(outcome.result())
                .isEqualTo(new ReflectionResult(
                        "Hit the rate limit.", "Pace report fetches", "Wait 1 s between fetches."));
        assertThat(prompts).singleElement().isEqualTo(ReflectionPrompt.build(INPUT));
    }

    @Test
    void aTimeoutFallsBackToTheHeuristic() {
        ModelReflector reflector = new ModelReflector(prompt -> {
            throw new HttpTimeoutException("request timed out");
        });
        assertThat(reflector.reflect(INPUT)).isEqualTo(new ReflectionOutcome(HEURISTIC, LessonSource.HEURISTIC));
    }

    @Test
    void aServerErrorFallsBackToTheHeuristic() {
        ModelReflector reflector = new ModelReflector(prompt -> ChatCompletionsJson.content(
                "{\"error\": {\"message\": \"upstream 503\", \"type\": \"server_error\"}}"));
        assertThat(reflector.reflect(INPUT)).isEqualTo(new ReflectionOutcome(HEURISTIC, LessonSource.HEURISTIC));
    }

    @Test
    void garbageOrAMissingFieldFallsBackToTheHeuristic() {
        assertThat(new ModelReflector(prompt -> "Sorry, I can't do that.")
                        .reflect(INPUT)
                        .source())
                .isEqualTo(LessonSource.HEURISTIC);
        assertThat(new ModelReflector(prompt -> "{\"reflection\": \"r\"}")
                        .reflect(INPUT)
                        .result())
                .isEqualTo(HEURISTIC);
        assertThat(new ModelReflector(prompt -> null).reflect(INPUT).result()).isEqualTo(HEURISTIC);
    }

    @Test
    void aRuntimeFailureFallsBackToo() {
        ModelReflector reflector = new ModelReflector(prompt -> {
            throw new IllegalStateException("client closed");
        });
        assertThat(reflector.reflect(INPUT).source()).isEqualTo(LessonSource.HEURISTIC);
    }

    @Test
    void anInterruptFallsBackAndKeepsTheInterruptFlag() {
        ModelReflector reflector = new ModelReflector(prompt -> {
            throw new InterruptedException();
        });
        try {
            assertThat(reflector.reflect(INPUT).result()).isEqualTo(HEURISTIC);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
