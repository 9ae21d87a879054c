package org.agentmemory.pii.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentmemory.api.pii.Detection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The built-in detector of structured identifiers (issue 34 item 3). */
class IdentifierDetectorTest {

    private final IdentifierDetector detector = new IdentifierDetector();

    private List<String> found(String text) {
        return detector.detect(text).stream()
                .map(d -> d.label() + ":" + d.value())
                .toList();
    }

    @Test
    void findsEmailsPhonesIbansAndCards() {
        String text = "Write to jean.dupont+cv@mail.example.fr, call +33 6 12 34 56 78 or 020 7946 0958 or"
                + " (415) 555-2671; pay to FR76 3000 6000 0112 3456 7890 189 or DE89370400440532013000, card"
                + " 4111 1111 1111 1111 or 5555-5555-5555-4444.";
        assertThat(found(text))
                .containsExactly(
                        "EMAIL:jean.dupont+cv@mail.example.fr",
                        "PHONE:+33 6 12 34 56 78",
                        "PHONE:020 7946 0958",
                        "PHONE:(415) 555-2671",
                        "IBAN:FR76 3000 6000 0112 3456 7890 189",
                        "IBAN:DE89370400440532013000",
                        "CREDIT_CARD:4111 1111 1111 1111",
                        "CREDIT_CARD:5555-5555-5555-4444");
    }

    @Test
    void offsetsAreCodePoints() {
        List<Detection> found = detector.detect("😀 é a@b.io");
        assertThat(found).singleElement().satisfies(d -> {
            assertThat(d.start()).isEqualTo(4);
            assertThat(d.end()).isEqualTo(10);
        });
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Order ORD-2024-001234 shipped on 2024-01-15.",
                "Order #100234567 of 15/01/2024 and 01.02.2024 at 10:30.",
                "Invoice 4111111111111112 (checksum fails) and ref 1234567890123.",
                "Tracking 12-345-678, order 20240115093000, ticket INC0012345678.",
                "IBAN-like FR76 3000 6000 0112 3456 7890 188 with a wrong check.",
                "Version 1.2.3.4 built 2026-12-05T23:59:59Z, PO 4500012345.",
                "Quantities 1 234 567 and 12 345 678 901 items."
            })
    void reportsNoOrderNumbersOrDates(String text) {
        assertThat(found(text)).isEmpty();
    }

    @Test
    void checksumsHold() {
        assertThat(IdentifierDetector.luhn("4111111111111111")).isTrue();
        assertThat(IdentifierDetector.luhn("4111111111111112")).isFalse();
        assertThat(IdentifierDetector.ibanValid("GB82WEST12345698765432")).isTrue();
        assertThat(IdentifierDetector.ibanValid("GB82WEST12345698765433")).isFalse();
    }
}
