package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec §2: one golden test per rule, order sensitivity, JSON forms, traceback condensing, turns. */
class NormalizerTest {

    private static final String ESC = "\u001b";
    private static final String BEL = "\u0007";

    @Nested
    class Rule1Nfc {

        @Test
        void composesBaseCharacterAndCombiningMark() {
            assertThat(Normalizer.normalizeText("cafe\u0301")).isEqualTo("caf\u00e9");
        }

        @Test
        void mapsCanonicalSingletonsToTheirNfcForm() {
            // U+212B ANGSTROM SIGN is canonically equivalent to U+00C5.
            assertThat(Normalizer.normalizeText("\u212b")).isEqualTo("\u00c5");
        }

        @Test
        void composesHangulJamo() {
            assertThat(Normalizer.normalizeText("\u1100\u1161")).isEqualTo("\uac00");
        }

        @Test
        void everyCharacterBelowU0300IsAlreadyNfcSoTheFastPathIsSafe() {
            StringBuilder all = new StringBuilder();
            for (char c = 0x20; c < 0x300; c++) {
                if (c != 0x7f) {
                    all.append(c).append('a').append(c);
                }
            }
            String text = all.toString();
            assertThat(java.text.Normalizer.isNormalized(text, java.text.Normalizer.Form.NFC))
                    .isTrue();
            assertThat(Normalizer.normalizeText(text)).isSameAs(text);
        }
    }

    @Nested
    class Rule2aLineBreaks {

        @Test
        void turnsCrLfIntoLf() {
            assertThat(Normalizer.normalizeText("a\r\nb\r\n")).isEqualTo("a\nb\n");
        }

        @Test
        void turnsLoneCrIntoLf() {
            assertThat(Normalizer.normalizeText("50%\r75%\r100%")).isEqualTo("50%\n75%\n100%");
        }

        @Test
        void replacesCrLfBeforeLoneCr() {
            // "\r\r\n": CR LF first gives "\r\n"'s LF, then the lone CR: two LFs, never three.
            assertThat(Normalizer.normalizeText("a\r\r\nb")).isEqualTo("a\n\nb");
        }
    }

    @Nested
    class Rule2bCsi {

        @Test
        void deletesColourSequences() {
            assertThat(Normalizer.normalizeText(ESC + "[1;31mred" + ESC + "[0m plain"))
                    .isEqualTo("red plain");
        }

        @Test
        void deletesSequencesWithPrivateParametersAndIntermediateBytes() {
            // '?' is a parameter byte (0x3F); ' ' an intermediate byte (0x20); 'q' the final byte.
            assertThat(Normalizer.normalizeText("a" + ESC + "[?25lb" + ESC + "[2 qc"))
                    .isEqualTo("abc");
        }

        @Test
        void deletesSequenceWithoutParameters() {
            assertThat(Normalizer.normalizeText(ESC + "[Kline")).isEqualTo("line");
        }

        @Test
        void leavesTheBracketWhenTheFinalByteIsMissing() {
            // ESC [ 1 then LF: not a CSI; rule 2e removes the ESC alone.
            assertThat(Normalizer.normalizeText(ESC + "[1\nx")).isEqualTo("[1\nx");
        }
    }

    @Nested
    class Rule2cOsc {

        @Test
        void deletesBelTerminatedSequences() {
            assertThat(Normalizer.normalizeText(ESC + "]0;build: step 3" + BEL + "done"))
                    .isEqualTo("done");
        }

        @Test
        void deletesHyperlinksUpToTheFirstBel() {
            String link = ESC + "]8;;https://example.org" + BEL + "docs" + ESC + "]8;;" + BEL;
            assertThat(Normalizer.normalizeText(link)).isEqualTo("docs");
        }

        @Test
        void doesNotHandleTheStringTerminator() {
            // ESC \ is not a terminator in this rule: both ESCs fall to rule 2e, the rest stays.
            assertThat(Normalizer.normalizeText(ESC + "]0;title" + ESC + "\\text"))
                    .isEqualTo("]0;title\\text");
        }

        @Test
        void spansLinesUntilBel() {
            assertThat(Normalizer.normalizeText("a" + ESC + "]x\ny" + BEL + "b"))
                    .isEqualTo("ab");
        }
    }

    @Nested
    class Rule2dSs3 {

        @Test
        void deletesEscOAndOneCharacter() {
            assertThat(Normalizer.normalizeText("F1:" + ESC + "OP.")).isEqualTo("F1:.");
        }

        @Test
        void theOneCharacterIsACodePointNotACharUnit() {
            assertThat(Normalizer.normalizeText("a" + ESC + "O\ud83d\ude00b")).isEqualTo("ab");
        }

        @Test
        void neverSwallowsALineFeed() {
            // Python's '.' does not match LF: ESC is then a stray ESC removed by rule 2e.
            assertThat(Normalizer.normalizeText(ESC + "O\nnext")).isEqualTo("O\nnext");
        }

        @Test
        void needsACharacterAfterTheO() {
            assertThat(Normalizer.normalizeText("end" + ESC + "O")).isEqualTo("endO");
        }
    }

    @Nested
    class Rule2eControls {

        @Test
        void deletesC0ControlsAndDelButKeepsTabAndLf() {
            String text = "a\u0000b\u0001c\u0008d\u000be\u000cf\u000eg\u001fh\u007fi\tj\nk";
            assertThat(Normalizer.normalizeText(text)).isEqualTo("abcdefghi\tj\nk");
        }

        @Test
        void deletesAStrayEsc() {
            assertThat(Normalizer.normalizeText("a" + ESC + "b")).isEqualTo("ab");
        }

        @Test
        void keepsC1ControlsAndOtherUnicode() {
            assertThat(Normalizer.normalizeText("a\u0085b\u009bc\u2028d")).isEqualTo("a\u0085b\u009bc\u2028d");
        }
    }

    @Nested
    class Rule3aTrailingBlanks {

        @Test
        void stripsSpacesAndTabsAtTheEndOfEveryLine() {
            assertThat(Normalizer.normalizeText("a  \t\nb \nc\t")).isEqualTo("a\nb\nc");
        }

        @Test
        void keepsLeadingAndInnerBlanks() {
            assertThat(Normalizer.normalizeText("  a \t b\n\tc")).isEqualTo("  a \t b\n\tc");
        }

        @Test
        void leavesOtherUnicodeSpacesAlone() {
            assertThat(Normalizer.normalizeText("a\u00a0\nb\u3000")).isEqualTo("a\u00a0\nb\u3000");
        }
    }

    @Nested
    class Rule3bBlankRuns {

        @Test
        void collapsesFourOrMoreLineFeedsToThree() {
            assertThat(Normalizer.normalizeText("a\n\n\n\nb\n\n\n\n\n\n\n\n\nc"))
                    .isEqualTo("a\n\n\nb\n\n\nc");
        }

        @Test
        void keepsThreeLineFeeds() {
            assertThat(Normalizer.normalizeText("a\n\n\nb")).isEqualTo("a\n\n\nb");
        }
    }

    @Nested
    class RuleOrder {

        @Test
        void csiSplitByCrIsBrokenBecauseCrBecomesLfFirst() {
            // 2a turns CR into LF, which is no CSI byte: the sequence no longer matches and only ESC goes.
            assertThat(Normalizer.normalizeText(ESC + "[3\r1mX")).isEqualTo("[3\n1mX");
        }

        @Test
        void blankLinesMadeOfSpacesCollapseBecause3aRunsBefore3b() {
            assertThat(Normalizer.normalizeText("a\n \n\t\n  \nb")).isEqualTo("a\n\n\nb");
        }

        @Test
        void controlCharactersBetweenLineFeedsAreDeletedBeforeCollapsing() {
            assertThat(Normalizer.normalizeText("a\n\n\u0001\n\nb")).isEqualTo("a\n\n\nb");
        }

        @Test
        void crLfRunsCollapseAfterConversion() {
            assertThat(Normalizer.normalizeText("a\r\n\r\n\r\n\r\n\r\nb")).isEqualTo("a\n\n\nb");
        }

        @Test
        void blanksBeforeAColourResetAreTrailing() {
            assertThat(Normalizer.normalizeText("ok  " + ESC + "[0m\nnext")).isEqualTo("ok\nnext");
        }

        @Test
        void ss3RunsOnWhatCsiDeletionJoined() {
            // The CSI pass removes ESC[0m, joining the first ESC with "Ox"; the later SS3 pass removes that.
            assertThat(Normalizer.normalizeText(ESC + ESC + "[0mOx!")).isEqualTo("!");
        }

        @Test
        void csiDoesNotRunAgainOnWhatOscDeletionJoined() {
            // OSC runs after CSI: the ESC it exposes before "[0m" is only a stray ESC for rule 2e.
            assertThat(Normalizer.normalizeText(ESC + ESC + "]t" + BEL + "[0m")).isEqualTo("[0m");
        }

        @Test
        void eachPassResumesAfterItsMatchLikeRegexSubstitution() {
            // The CSI pass deletes ESC[0m; the ESC before it then precedes "[31m" but is not rescanned.
            assertThat(Normalizer.normalizeText(ESC + ESC + "[0m[31mz")).isEqualTo("[31mz");
        }

        @Test
        void nfcRunsBeforeCsiDeletionSoACombiningMarkCanFuseWithTheFinalByte() {
            // "m" + U+0301 composes to U+1E3F, which is no final byte: the CSI survives except for its ESC.
            assertThat(Normalizer.normalizeText("cafe" + ESC + "[0m\u0301")).isEqualTo("cafe[0\u1e3f");
        }

        @Test
        void composesAgainWhenADeletionJoinsABaseAndACombiningMark() {
            // Documented deviation: the literal spec would store "e" + U+0301, which a second pass changes.
            assertThat(Normalizer.normalizeText("cafe" + ESC + "]0;t" + BEL + "\u0301"))
                    .isEqualTo("caf\u00e9");
            assertThat(Normalizer.normalizeText("e\u0001\u0301")).isEqualTo("\u00e9");
        }
    }

    @Nested
    class CanonicalJsonText {

        @Test
        void sortsKeysAtEveryDepthAndRemovesWhitespace() {
            String text = "{\n  \"b\": 1,\n  \"a\": {\"d\": [3, {\"z\": 1, \"y\": 2}], \"c\": null}\n}\n";
            assertThat(Normalizer.canonicalJsonText(text))
                    .isEqualTo("{\"a\":{\"c\":null,\"d\":[3,{\"y\":2,\"z\":1}]},\"b\":1}");
        }

        @Test
        void rewritesArrays() {
            assertThat(Normalizer.canonicalJsonText("  [1, \"two\", true, null]\n"))
                    .isEqualTo("[1,\"two\",true,null]");
        }

        @Test
        void writesNonAsciiRaw() {
            assertThat(Normalizer.canonicalJsonText("{\"city\": \"\u6771\u4eac\", \"emoji\": \"\ud83d\ude80\"}"))
                    .isEqualTo("{\"city\":\"\u6771\u4eac\",\"emoji\":\"\ud83d\ude80\"}");
        }

        @Test
        void keepsJsonAsSentWhenAnEscapeDecodesToAnUnpairedSurrogate() {
            // Written raw, "\ud800" would become a character no UTF-8 store keeps (PostgreSQL stored "?").
            String lone = "{\"b\": 1, \"a\": \"x\\ud800y\"}";
            assertThat(Normalizer.canonicalJsonText(lone)).isSameAs(lone);
            String reversed = "[\"\\udc00\\ud800\"]";
            assertThat(Normalizer.canonicalJsonText(reversed)).isSameAs(reversed);
            // A pair written as two escapes is one character, and canonicalized as usual.
            assertThat(Normalizer.canonicalJsonText("{\"b\": 1, \"a\": \"\\ud83d\\ude80\"}"))
                    .isEqualTo("{\"a\":\"\ud83d\ude80\",\"b\":1}");
        }

        @Test
        void keepsNumbersExactly() {
            assertThat(Normalizer.canonicalJsonText("[1.50, 12345678901234567890, -7]"))
                    .isEqualTo("[1.50,12345678901234567890,-7]");
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '\'',
                value = {"42", "true", "false", "null", "'\"just a string\"'", "' 42 '", "3.14"})
        void leavesScalarsUnchanged(String text) {
            assertThat(Normalizer.canonicalJsonText(text)).isSameAs(text);
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '\'',
                value = {
                    "'{not json'",
                    "'{\"a\": 1} trailing'",
                    "'[1, 2'",
                    "'{\"a\": NaN}'",
                    "'{a: 1}'",
                    "'plain text output'",
                    "'[INFO] started'"
                })
        void leavesInvalidJsonUnchanged(String text) {
            assertThat(Normalizer.canonicalJsonText(text)).isSameAs(text);
        }

        @Test
        void leavesBlankTextUnchanged() {
            assertThat(Normalizer.canonicalJsonText("")).isEqualTo("");
            assertThat(Normalizer.canonicalJsonText(" \n\t ")).isEqualTo(" \n\t ");
        }

        @Test
        void stripsUnicodeWhitespaceAsPythonDoes() {
            assertThat(Normalizer.canonicalJsonText("\u00a0{\"b\":1,\"a\":2}\u3000"))
                    .isEqualTo("{\"a\":2,\"b\":1}");
        }

        @Test
        void acceptsDuplicateKeysWithTheLastOneWinningAsPythonDoes() {
            assertThat(Normalizer.canonicalJsonText("{\"a\": 1, \"a\": 2}")).isEqualTo("{\"a\":2}");
        }

        @Test
        void outputKeepsTheNormalizedTextWhenTheCanonicalFormWouldNotBeNormalized() {
            // The escape \u0301 after "e" would become a raw non-NFC pair; a second pass would change it.
            String json = "{\"name\": \"e\\u0301\"}";
            assertThat(Normalizer.canonicalJsonText(json)).isEqualTo("{\"name\":\"e\u0301\"}");
            assertThat(Normalizer.normalizeOutput(json)).isEqualTo(json);
            assertThat(Normalizer.normalizeOutput("{\"b\": \"\\u007f\", \"a\": 1}"))
                    .isEqualTo("{\"b\": \"\\u007f\", \"a\": 1}");
        }

        @Test
        void outputIsNormalizedThenCanonicalized() {
            String output = ESC + "[32m{\"b\": 1,\r\n \"a\": \"x\"}" + ESC + "[0m   \r\n";
            assertThat(Normalizer.normalizeOutput(output)).isEqualTo("{\"a\":\"x\",\"b\":1}");
        }
    }

    @Nested
    class CanonicalInput {

        @Test
        void sortsKeysRecursivelyIncludingMapsInsideLists() {
            Map<String, Object> inner = new LinkedHashMap<>();
            inner.put("z", 1);
            inner.put("a", 2);
            Map<String, Object> input = new LinkedHashMap<>();
            input.put("query", "weather");
            input.put("filters", List.of(inner));
            input.put("opts", Map.of("b", true));

            Map<String, Object> canonical = Normalizer.canonicalInput(input);

            assertThat(canonical.keySet()).containsExactly("filters", "opts", "query");
            @SuppressWarnings("unchecked")
            Map<String, Object> first = (Map<String, Object>) ((List<Object>) canonical.get("filters")).get(0);
            assertThat(first.keySet()).containsExactly("a", "z");
            assertThat(canonical)
                    .isEqualTo(Map.of(
                            "filters", List.of(Map.of("a", 2, "z", 1)), "opts", Map.of("b", true), "query", "weather"));
        }

        @Test
        void returnsPlainJsonValues() {
            Map<String, Object> canonical = Normalizer.canonicalInput(
                    Map.of("d", 1.5, "l", 10_000_000_000L, "big", new BigInteger("123456789012345678901234")));
            assertThat(canonical.get("d")).isEqualTo(new BigDecimal("1.5"));
            assertThat(canonical.get("l")).isEqualTo(10_000_000_000L);
            assertThat(canonical.get("big")).isEqualTo(new BigInteger("123456789012345678901234"));
        }

        @Test
        void isDeeplyUnmodifiable() {
            Map<String, Object> canonical = Normalizer.canonicalInput(Map.of("m", Map.of("k", List.of(1))));
            @SuppressWarnings("unchecked")
            Map<String, Object> nested = (Map<String, Object>) canonical.get("m");
            assertThatThrownBy(() -> nested.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ((List<?>) nested.get("k")).clear())
                    .isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void rejectsValuesThatAreNotJson() {
            Map<String, Object> input = Map.of("self", new Object());
            assertThatThrownBy(() -> Normalizer.canonicalInput(input))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Tool input is not a JSON object");
        }
    }

    @Nested
    class Rule5Traceback {

        private static final String FIVE_FRAMES = """
                Traceback (most recent call last):
                  File "/app/main.py", line 10, in <module>
                    main()
                  File "/app/main.py", line 6, in main
                    run()
                  File "/app/run.py", line 3, in run
                    step()
                  File "/app/step.py", line 9, in step
                    x = compute(1)
                  File "/app/compute.py", line 2, in compute
                    return 1 / 0
                           ~~^~~
                ZeroDivisionError: division by zero
                """;

        @Test
        void keepsHeaderLastThreeFramesAndExceptionLine() {
            assertThat(Normalizer.condenseTraceback(FIVE_FRAMES)).isEqualTo("""
                    Traceback (most recent call last):
                      File "/app/run.py", line 3, in run
                        step()
                      File "/app/step.py", line 9, in step
                        x = compute(1)
                      File "/app/compute.py", line 2, in compute
                        return 1 / 0
                               ~~^~~
                    ZeroDivisionError: division by zero""");
        }

        @Test
        void leavesTextWithoutHeaderUnchanged() {
            String text = "ValueError: bad input\n  File \"x.py\", line 1\n";
            assertThat(Normalizer.condenseTraceback(text)).isSameAs(text);
        }

        @Test
        void discardsEverythingBeforeTheHeader() {
            String text = "tool failed after 3 retries\nsee below\n" + FIVE_FRAMES;
            assertThat(Normalizer.condenseTraceback(text))
                    .startsWith("Traceback (most recent call last):\n  File \"/app/run.py\"");
        }

        @Test
        void countsFramesOfBothChainsAndLosesTheTextBetweenThem() {
            String chained = """
                    Traceback (most recent call last):
                      File "/app/cache.py", line 4, in get
                        value = self.store[key]
                      File "/app/cache.py", line 2, in __getitem__
                        return self.data[key]
                    KeyError: 'user:42'

                    During handling of the above exception, another exception occurred:

                    Traceback (most recent call last):
                      File "/app/api.py", line 8, in handler
                        user = cache.get(key)
                      File "/app/cache.py", line 6, in get
                        raise LookupError(key) from None
                    LookupError: user:42
                    """;
            assertThat(Normalizer.condenseTraceback(chained)).isEqualTo("""
                    Traceback (most recent call last):
                      File "/app/cache.py", line 2, in __getitem__
                        return self.data[key]
                      File "/app/api.py", line 8, in handler
                        user = cache.get(key)
                      File "/app/cache.py", line 6, in get
                        raise LookupError(key) from None
                    LookupError: user:42""");
        }

        @Test
        void keepsTheRestWhenThereAreNoFrames() {
            assertThat(Normalizer.condenseTraceback("Traceback (most recent call last):\n\nRuntimeError: x\n\n"))
                    .isEqualTo("Traceback (most recent call last):\nRuntimeError: x");
        }

        @Test
        void keepsOnlyTheHeaderWhenNothingFollows() {
            assertThat(Normalizer.condenseTraceback("oops Traceback (most recent call last):"))
                    .isEqualTo("Traceback (most recent call last):");
        }

        @Test
        void stripsBlankLinesAroundTheExceptionTail() {
            String text =
                    "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\n\n\nValueError: v\n\n";
            assertThat(Normalizer.condenseTraceback(text))
                    .isEqualTo(
                            "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\nValueError: v");
        }

        @Test
        void aFrameLineWithoutLineFeedIsNotAFrameBlock() {
            String text = "Traceback (most recent call last):\n  File \"a.py\", line 1, in f";
            assertThat(Normalizer.condenseTraceback(text)).isEqualTo(text);
        }

        @Test
        void findsFramesThatDoNotStartALine() {
            String text = "Traceback (most recent call last):\nnoise  File \"a.py\", line 1\n    g()\nE: e";
            assertThat(Normalizer.condenseTraceback(text))
                    .isEqualTo("Traceback (most recent call last):\n  File \"a.py\", line 1\n    g()\nE: e");
        }

        @Test
        void keepFramesZeroKeepsNoFrames() {
            assertThat(Normalizer.condenseTraceback(FIVE_FRAMES, 0))
                    .isEqualTo("Traceback (most recent call last):\nZeroDivisionError: division by zero");
        }

        @Test
        void keepsAllFramesWhenThereAreFewer() {
            String two =
                    "Traceback (most recent call last):\n  File \"a\", line 1\n    a()\n  File \"b\", line 2\n    b()\nE\n";
            assertThat(Normalizer.condenseTraceback(two)).isEqualTo(two.substring(0, two.length() - 1));
        }

        @Test
        void reachesAFixedPointWhenIndentedLinesFollowTheLastFrameAfterABlankLine() {
            // Documented deviation: the literal single pass gives "...g()\n    a note\n\nValueError: v",
            // which a second pass would turn into the result below.
            String text = "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\n\n"
                    + "    a note\n\nValueError: v";
            assertThat(Normalizer.condenseTraceback(text))
                    .isEqualTo(
                            "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\n    a note\nValueError: v");
        }

        @Test
        void handlesFramesWithHugeIndentedPayloadsWithoutRecursion() {
            StringBuilder text = new StringBuilder("Traceback (most recent call last):\n  File \"big.py\", line 1\n");
            for (int i = 0; i < 200_000; i++) {
                text.append("    payload line ").append(i).append('\n');
            }
            text.append("MemoryError");
            String condensed = Normalizer.condenseTraceback(text.toString());
            assertThat(condensed).endsWith("    payload line 199999\nMemoryError");
            assertThat(condensed.length()).isEqualTo(text.length());
        }
    }

    @Nested
    class Turns {

        private TurnRecord messyTurn() {
            Map<String, Object> nested = new LinkedHashMap<>();
            nested.put("z", 1);
            nested.put("a", List.of(3, 2));
            Map<String, Object> input = new LinkedHashMap<>();
            input.put("query", "caf\u0065\u0301");
            input.put("options", nested);
            ToolInvocationRecord invocation = new ToolInvocationRecord(
                    "search",
                    input,
                    ESC + "[1m{\"b\": 2, \"a\": 1}" + ESC + "[0m\r\n",
                    InvocationStatus.ERROR,
                    "boom\nTraceback (most recent call last):\n  File \"a\", line 1\n    a()\n  File \"b\", line 2\n    b()\n"
                            + "  File \"c\", line 3\n    c()\n  File \"d\", line 4\n    d()\nOSError: e  \n",
                    1234L,
                    99,
                    Map.of(),
                    "wm-1");
            return new TurnRecord(
                    "t-1",
                    7L,
                    "u-1",
                    "hello\r\nworld  ",
                    "answer" + ESC + "[0m\n\n\n\n\nend",
                    "ctx\u0000 ",
                    List.of("search"),
                    Instant.parse("2026-01-02T03:04:05Z"),
                    Map.of("model", "m"),
                    "bot",
                    List.of(invocation),
                    "Traceback (most recent call last):\nValueError: v\n",
                    new TokenCount(1, 2, 3, 6, "heuristic"),
                    TurnState.RAW,
                    1,
                    null);
        }

        @Test
        void appliesTheFieldTableOfSection2_5() {
            TurnRecord normalized = Normalizer.normalizeTurn(messyTurn());

            assertThat(normalized.userMessage()).isEqualTo("hello\nworld");
            assertThat(normalized.assistantResponse()).isEqualTo("answer\n\n\nend");
            assertThat(normalized.contextUsed()).isEqualTo("ctx");
            assertThat(normalized.error()).isEqualTo("Traceback (most recent call last):\nValueError: v");
            assertThat(normalized.normVersion()).isEqualTo("1");

            ToolInvocationRecord invocation = normalized.toolInvocations().get(0);
            assertThat(invocation.input().keySet()).containsExactly("options", "query");
            assertThat(invocation.input().get("query")).isEqualTo("caf\u0065\u0301"); // rule 4 only sorts keys
            assertThat(new ArrayList<Object>(((Map<?, ?>) invocation.input().get("options")).keySet()))
                    .containsExactly("a", "z");
            assertThat(invocation.output()).isEqualTo("{\"a\":1,\"b\":2}");
            assertThat(invocation.error())
                    .isEqualTo("Traceback (most recent call last):\n  File \"b\", line 2\n    b()\n"
                            + "  File \"c\", line 3\n    c()\n  File \"d\", line 4\n    d()\nOSError: e");
        }

        @Test
        void copiesEveryOtherField() {
            TurnRecord original = messyTurn();
            TurnRecord normalized = Normalizer.normalizeTurn(original);

            assertThat(normalized.turnId()).isEqualTo("t-1");
            assertThat(normalized.sequence()).isEqualTo(7L);
            assertThat(normalized.userId()).isEqualTo("u-1");
            assertThat(normalized.toolsUsed()).containsExactly("search");
            assertThat(normalized.timestamp()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
            assertThat(normalized.metadata()).isEqualTo(Map.of("model", "m"));
            assertThat(normalized.chatbotId()).isEqualTo("bot");
            assertThat(normalized.tokenCount()).isEqualTo(new TokenCount(1, 2, 3, 6, "heuristic"));
            assertThat(normalized.state()).isEqualTo(TurnState.RAW);
            assertThat(normalized.schemaVersion()).isEqualTo(1);
            ToolInvocationRecord invocation = normalized.toolInvocations().get(0);
            assertThat(invocation.toolName()).isEqualTo("search");
            assertThat(invocation.status()).isEqualTo(InvocationStatus.ERROR);
            assertThat(invocation.elapsedMs()).isEqualTo(1234L);
            assertThat(invocation.outputChars()).isEqualTo(99);
            assertThat(invocation.wmKey()).isEqualTo("wm-1");
        }

        @Test
        void neverModifiesTheInputTurnOrItsNestedInput() {
            TurnRecord original = messyTurn();
            TurnRecord snapshot = messyTurn();
            @SuppressWarnings("unchecked")
            Map<String, Object> nestedBefore = (Map<String, Object>)
                    original.toolInvocations().get(0).input().get("options");
            List<String> nestedOrderBefore = new ArrayList<>(nestedBefore.keySet());

            Normalizer.normalizeTurn(original);

            assertThat(original).isEqualTo(snapshot);
            assertThat(original.normVersion()).isNull();
            assertThat(original.userMessage()).isEqualTo("hello\r\nworld  ");
            assertThat(new ArrayList<>(nestedBefore.keySet()))
                    .isEqualTo(nestedOrderBefore)
                    .containsExactly("z", "a");
            assertThat(original.toolInvocations().get(0).input().keySet()).containsExactly("query", "options");
        }

        @Test
        void keepsNullTextsNull() {
            TurnRecord turn = new TurnRecord(
                    "t",
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    List.of(new ToolInvocationRecord("tool", null, null, null, null, null, null, null, null)),
                    null,
                    null,
                    null,
                    null,
                    null);
            TurnRecord normalized = Normalizer.normalizeTurn(turn);
            assertThat(normalized.userMessage()).isNull();
            assertThat(normalized.assistantResponse()).isNull();
            assertThat(normalized.contextUsed()).isNull();
            assertThat(normalized.error()).isNull();
            assertThat(normalized.toolInvocations().get(0).output()).isNull();
            assertThat(normalized.toolInvocations().get(0).error()).isNull();
            assertThat(normalized.toolInvocations().get(0).input()).isEmpty();
        }

        @Test
        void isIdempotentOnATurn() {
            TurnRecord once = Normalizer.normalizeTurn(messyTurn());
            assertThat(Normalizer.normalizeTurn(once)).isEqualTo(once);
        }
    }
}
