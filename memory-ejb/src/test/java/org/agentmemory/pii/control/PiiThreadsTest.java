package org.agentmemory.pii.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.pii.AnonymizedText;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.api.pii.RestoredText;
import org.junit.jupiter.api.Test;

/** Seed 002's semantics and issue 34 item 3's placeholders over the in-process store. */
class PiiThreadsTest {

    private final PiiThreads threads = new PiiThreads(new InProcessDetectionStore(0, null, new TestClock()));
    private final ThreadKey thread = new ThreadKey("t", "u", "th");

    private static Detection d(String label, String value, int start) {
        return new Detection(label, value, start, start + value.codePointCount(0, value.length()), 0.9, null);
    }

    private static List<String> values(List<Detection> detections) {
        return detections.stream().map(Detection::value).toList();
    }

    @Test
    void rememberingAMessageAgainReplacesItsEntry() throws InvalidInputException {
        threads.remember(thread, "m1", List.of(d("PERSON", "Ann", 0), d("PERSON", "Bob", 8)), MessageRole.USER);
        threads.remember(thread, "m1", List.of(d("PERSON", "Cid", 0)), MessageRole.USER);

        assertThat(values(threads.detections(thread, "m1").detections())).containsExactly("Cid");
        assertThat(values(threads.detections(thread, null).detections())).containsExactly("Cid");
        assertThat(threads.detections(thread, "nope").detections()).isEmpty();
    }

    @Test
    void mergesTheThreadInFirstSeenOrderOncePerValueKey() throws InvalidInputException {
        threads.remember(thread, "m1", List.of(d("PERSON", "Ann Lee", 0), d("EMAIL", "a@x.io", 10)), MessageRole.USER);
        threads.remember(
                thread, "m2", List.of(d("PERSON", "Bob", 0), d("PERSON", "ann  LEE", 5)), MessageRole.ASSISTANT);
        threads.remember(thread, "m3", List.of(d("EMAIL", "A@X.IO", 0), d("PHONE", "+33 6 12", 9)), MessageRole.TOOL);

        assertThat(values(threads.detections(thread, null).detections()))
                .containsExactly("Ann Lee", "a@x.io", "Bob", "+33 6 12");
    }

    @Test
    void provenanceKeysIgnoreCaseAndSpacesAndKeepTheFirstRole() throws InvalidInputException {
        threads.remember(thread, "m1", List.of(d("PERSON", "Ann Lee", 0)), MessageRole.ASSISTANT);
        threads.remember(thread, "m2", List.of(d("PERSON", "ANN LEE", 0), d("PERSON", "Bob", 9)), MessageRole.USER);

        assertThat(threads.provenance(thread).roles())
                .containsExactly(
                        java.util.Map.entry("annlee", MessageRole.ASSISTANT),
                        java.util.Map.entry("bob", MessageRole.USER));
        assertThat(Placeholders.valueKey(" Jean\tPaul  DUPONT ")).isEqualTo("jeanpauldupont");
    }

    @Test
    void forgetCountsMessagesAndDetectionsThenZeros() throws InvalidInputException {
        threads.remember(thread, "m1", List.of(d("PERSON", "Ann", 0), d("PERSON", "Bob", 4)), MessageRole.USER);
        threads.remember(thread, "m2", List.of(), MessageRole.USER);
        threads.remember(thread, "m3", List.of(d("PERSON", "Ann", 0)), MessageRole.USER);

        assertThat(threads.forget(new ThreadKey("t", "u", "unknown"))).isEqualTo(new Forgotten(0, 0));
        assertThat(threads.forget(thread)).isEqualTo(new Forgotten(3, 3));
        assertThat(threads.forget(thread)).isEqualTo(new Forgotten(0, 0));
        assertThat(threads.detections(thread, null).detections()).isEmpty();
    }

    @Test
    void givesEachValueOnePlaceholderForTheWholeThread() throws InvalidInputException {
        String first = "Mail ann@example.com or bob@example.org";
        AnonymizedText a = threads.anonymize(thread, null, first, null, MessageRole.USER);
        assertThat(a.text()).isEqualTo("Mail <<EMAIL_1>> or <<EMAIL_2>>");

        for (int turn = 0; turn < 20; turn++) {
            String text = "turn " + turn + ": BOB@example.org wrote to ann@example.com";
            assertThat(threads.anonymize(thread, "t" + turn, text, null, MessageRole.USER)
                            .text())
                    .isEqualTo("turn " + turn + ": <<EMAIL_2>> wrote to <<EMAIL_1>>");
        }
        AnonymizedText person = threads.anonymize(
                thread, "p", "Hi Zoë Ann, mail cid@example.net", List.of(d("PERSON", "Zoë Ann", 3)), MessageRole.USER);
        assertThat(person.text()).isEqualTo("Hi <<PERSON_1>>, mail cid@example.net");
    }

    @Test
    void aKnownValueKeepsItsPlaceholderOnLaterTurnsWithoutBeingDetectedAgain() throws InvalidInputException {
        threads.anonymize(thread, "m1", "I am Ann Lee", List.of(d("PERSON", "Ann Lee", 5)), MessageRole.USER);
        AnonymizedText later =
                threads.anonymize(thread, "m2", "ANN LEE wrote the Annual report; ann leeway", null, MessageRole.USER);
        assertThat(later.text()).isEqualTo("<<PERSON_1>> wrote the Annual report; ann leeway");
        assertThat(threads.deanonymize(thread, later.text()).text()).startsWith("Ann Lee wrote");
    }

    @Test
    void concurrentTurnsOfOneThreadNeverShareANumber() throws Exception {
        int turns = 16;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<AnonymizedText>> results = new java.util.ArrayList<>();
            for (int i = 0; i < turns; i++) {
                String text = "mail user" + i + "@example.com";
                results.add(pool.submit(() -> threads.anonymize(thread, null, text, null, MessageRole.USER)));
            }
            java.util.Set<String> placeholders = new java.util.HashSet<>();
            for (var result : results) {
                placeholders.add(result.get().detections().get(0).placeholder());
            }
            assertThat(placeholders).hasSize(turns);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void callerDetectionsUseCodePointOffsets() throws InvalidInputException {
        String text = "😀 Zoë met Ann";
        AnonymizedText a = threads.anonymize(
                thread, "m", text, List.of(d("PERSON", "Zoë", 2), d("PERSON", "Ann", 10)), MessageRole.USER);
        assertThat(a.text()).isEqualTo("😀 <<PERSON_1>> met <<PERSON_2>>");
    }

    @Test
    void deanonymizeRestoresOnlyThisThreadsPlaceholders() throws InvalidInputException {
        ThreadKey other = new ThreadKey("t", "u", "other");
        threads.anonymize(thread, null, "write ann@example.com", null, MessageRole.USER);
        threads.anonymize(other, null, "write eve@example.com and zed@example.com", null, MessageRole.USER);

        RestoredText restored = threads.deanonymize(thread, "Sent to <<EMAIL_1>> and <<EMAIL_2>> and <<PHONE_1>>.");
        assertThat(restored.text()).isEqualTo("Sent to ann@example.com and <<EMAIL_2>> and <<PHONE_1>>.");
        assertThat(restored.restored()).isEqualTo(1);
        assertThat(threads.deanonymize(other, "<<EMAIL_1>>").text()).isEqualTo("eve@example.com");
    }

    @Test
    void refusesDetectionsThatDoNotMatchTheText() {
        assertThatThrownBy(() ->
                        threads.anonymize(thread, null, "Hi Ann", List.of(d("PERSON", "Bob", 3)), MessageRole.USER))
                .isInstanceOf(InvalidInputException.class)
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("detections[0].value"));
        assertThatThrownBy(() -> threads.remember(
                        thread, "m", List.of(new Detection("person", "Ann", 0, 3, 1, null)), MessageRole.USER))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("detections[0].label"));
        assertThatThrownBy(() -> threads.remember(
                        thread, "m", List.of(new Detection("PERSON", "Ann", 3, 3, 1, null)), MessageRole.USER))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("detections[0].end"));
        assertThatThrownBy(() -> threads.remember(
                        thread, "m", List.of(new Detection("PERSON", "Ann", 0, 3, 1.5, null)), MessageRole.USER))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("detections[0].confidence"));
    }
}
