package org.agentmemory.pii.control;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentmemory.api.pii.Detection;

/**
 * The built-in detector of structured identifiers (issue 34 item 3), used when a caller supplies no detections:
 * e-mail addresses, IBANs (country code, check digits, mod-97 = 1), payment card numbers (13–19 digits, Luhn check,
 * major-network prefix) and phone numbers (international {@code +} numbers of 8–15 digits, national numbers starting
 * with 0 of 9–15 digits, North-American {@code (555) 123-4567} / {@code 555-123-4567}). A number glued to a letter,
 * {@code #} or {@code -} (an order or ticket number such as {@code ORD-2024-001234}) is not reported, and dates have
 * too few digits to pass. Offsets are in code points. Names are not structured: pass PERSON detections yourself.
 * Pure and thread-safe.
 */
public final class IdentifierDetector {

    private static final Pattern EMAIL =
            Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.[A-Za-z]{2,24}(?![A-Za-z0-9-])");
    private static final Pattern IBAN =
            Pattern.compile("(?<![A-Za-z0-9#-])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9-])");
    private static final Pattern CARD =
            Pattern.compile("(?<![A-Za-z0-9#/.,-])[0-9](?:[ -]?[0-9]){12,18}(?![A-Za-z0-9/-])");
    private static final Pattern PHONE = Pattern.compile("(?<![A-Za-z0-9#/.,+-])(?<![0-9][ .-])(?:"
            + "\\+[0-9]{1,3}(?:[ .-]?\\(?[0-9]{1,4}\\)?)(?:[ .-]?[0-9]{2,4}){2,5}"
            + "|\\(?0[0-9]{1,4}\\)?(?:[ .-]?[0-9]{2,4}){2,5}"
            + "|\\([2-9][0-9]{2}\\) ?[0-9]{3}-[0-9]{4}"
            + "|[2-9][0-9]{2}-[0-9]{3}-[0-9]{4}"
            + ")(?![A-Za-z0-9/-])");

    /**
     * @param text the text to scan
     * @return what was found, sorted by start, not overlapping (an earlier match wins, then a longer one)
     */
    public List<Detection> detect(String text) {
        List<Detection> found = new ArrayList<>();
        scan(text, EMAIL, "EMAIL", 0.95, found);
        scan(text, IBAN, "IBAN", 1.0, found);
        scan(text, CARD, "CREDIT_CARD", 1.0, found);
        scan(text, PHONE, "PHONE", 0.85, found);
        return nonOverlapping(found);
    }

    private static void scan(String text, Pattern pattern, String label, double confidence, List<Detection> found) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            String value = m.group();
            if (label.equals("IBAN")) {
                value = longestValidIban(value);
            }
            if (value != null && valid(label, value)) {
                int start = text.codePointCount(0, m.start());
                int end = start + value.codePointCount(0, value.length());
                found.add(new Detection(label, value, start, end, confidence, null));
            }
        }
    }

    private static boolean valid(String label, String value) {
        String digits = value.replaceAll("[^0-9]", "");
        return switch (label) {
            case "IBAN" -> ibanValid(value.replace(" ", ""));
            case "CREDIT_CARD" -> digits.length() >= 13 && digits.length() <= 19 && cardPrefix(digits) && luhn(digits);
            case "PHONE" -> phoneValid(value, digits);
            default -> true;
        };
    }

    /** @return the longest prefix of a matched IBAN candidate that passes the check, or {@code null} */
    private static String longestValidIban(String candidate) {
        for (String v = candidate.strip();
                v.replace(" ", "").length() >= 15;
                v = v.substring(0, v.length() - 1).strip()) {
            if (ibanValid(v.replace(" ", ""))) {
                return v;
            }
        }
        return null;
    }

    /**
     * @param iban an IBAN without spaces
     * @return whether its length fits (15–34) and its mod-97 check (ISO 13616) is 1
     */
    static boolean ibanValid(String iban) {
        if (iban.length() < 15 || iban.length() > 34) {
            return false;
        }
        String rearranged = iban.substring(4) + iban.substring(0, 4);
        StringBuilder numeric = new StringBuilder(rearranged.length() * 2);
        for (char c : rearranged.toCharArray()) {
            numeric.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        return new BigInteger(numeric.toString()).mod(BigInteger.valueOf(97)).intValue() == 1;
    }

    /**
     * @param digits a card number's digits
     * @return whether its Luhn checksum holds
     */
    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    /** Visa 4, Mastercard 51–55 and 2221–2720, Amex 34/37, Discover 6011/64/65, Diners 36/38, JCB 35, UnionPay 62. */
    private static boolean cardPrefix(String digits) {
        char first = digits.charAt(0);
        return first == '4' || first == '5' || first == '2' || first == '3' || first == '6';
    }

    private static boolean phoneValid(String value, String digits) {
        if (value.startsWith("+")) {
            return digits.length() >= 8 && digits.length() <= 15;
        }
        if (value.startsWith("0") || value.startsWith("(0")) {
            return digits.length() >= 9 && digits.length() <= 15;
        }
        return digits.length() == 10;
    }

    private static List<Detection> nonOverlapping(List<Detection> found) {
        return PiiThreads.nonOverlapping(found);
    }
}
