package org.agentmemory.security;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Prints the CPU cost of verifying a bearer token (RS256, 2048-bit key) in one thread: a token seen for the first
 * time, and the same token again (the verifier's cache). Not a test: run it with
 * {@code mvn -q -pl memory-web -am test-compile exec:java -Dexec.mainClass=org.agentmemory.security.TokenVerificationBenchmark -Dexec.classpathScope=test}.
 */
public final class TokenVerificationBenchmark {

    private TokenVerificationBenchmark() {}

    public static void main(String[] args) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        int n = 5_000;
        String[] tokens = new String[n];
        for (int i = 0; i < n; i++) {
            tokens[i] = DevelopmentKeys.sign(
                    pair.getPrivate(),
                    "agent-memory",
                    "agent-memory",
                    "tenant-" + i,
                    "caller",
                    List.of(Roles.WRITER),
                    Instant.now(),
                    Duration.ofHours(1));
        }
        for (int round = 0; round < 3; round++) {
            TokenVerifier verifier = new TokenVerifier(
                    pair.getPublic(),
                    null,
                    "agent-memory",
                    "agent-memory",
                    30,
                    new TokenVerifier.ClaimNames("tenant", "memory_user", "memory_agent"));
            long start = System.nanoTime();
            for (String token : tokens) {
                verifier.verify(token);
            }
            long first = System.nanoTime() - start;
            start = System.nanoTime();
            for (String token : tokens) {
                verifier.verify(token);
            }
            long again = System.nanoTime() - start;
            System.out.printf(
                    Locale.ROOT,
                    "round %d: first verification %.1f us per token, again (cached) %.2f us per token%n",
                    round + 1,
                    first / 1e3 / n,
                    again / 1e3 / n);
        }
    }
}
