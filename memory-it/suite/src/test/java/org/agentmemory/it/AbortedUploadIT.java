package org.agentmemory.it;

import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aborted uploads give their large-body slot back (issue 31 item 7). Before the fix, two chunked {@code POST
 * /turns} of about 300 KiB whose client closed the socket mid-body kept both slots forever: every later request
 * with a body over 256 KiB waited 30 s and got 503, while readiness stayed 200.
 */
class AbortedUploadIT {

    private static final int LARGE = 300 * 1024;

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void uploadsAbortedMidBodyGiveTheirSlotsBack(Api api) throws Exception {
        for (int i = 0; i < 3; i++) {
            abortMidBody(api);
        }
        awaitFreeSlots(api, Duration.ofSeconds(15));

        String user = unique("aborted-upload");
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            Api.Response r = api.post(
                    "/turns", addTurn("bot", user, "s", turn("t" + i, "x".repeat(LARGE / 2), "y".repeat(LARGE / 2))));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.status())
                    .as("large body %d after aborted uploads: %s", i, r.body())
                    .isEqualTo(201);
            assertThat(ms).as("a free slot is taken at once").isLessThan(20_000);
        }
        JsonNode check = limiterCheck(api);
        assertThat(check.get("status").asText()).isEqualTo("UP");
        assertThat(check.at("/data/free").asInt())
                .isEqualTo(check.at("/data/permits").asInt());
    }

    /** Sends the headers and half of a 300 KiB chunk of {@code POST /turns}, then resets the connection. */
    private static void abortMidBody(Api api) throws IOException {
        URI base = URI.create(api.base());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            String head = "POST " + base.getPath() + "/api/v1/turns HTTP/1.1\r\n"
                    + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
                    + "Authorization: Bearer " + api.token() + "\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(LARGE) + "\r\n"
                    + "{\"chatbotId\":\"bot\",\"userId\":\"aborted\",\"sessionId\":\"s\",\"turn\":{\"userMessage\":\"";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write("y".repeat(LARGE / 2).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(300);
            socket.setSoLinger(true, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void awaitFreeSlots(Api api, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode check = limiterCheck(api);
        while (check.at("/data/free").asInt() < check.at("/data/permits").asInt() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            check = limiterCheck(api);
        }
        assertThat(check.at("/data/free").asInt())
                .as("free large-body slots after aborted uploads: %s", check)
                .isEqualTo(check.at("/data/permits").asInt());
    }

    private static JsonNode limiterCheck(Api api) {
        Api.Response ready = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready"))
                .GET());
        for (JsonNode c : ready.json().get("checks")) {
            if (c.get("name").asText().equals("memory-large-body-limiter")) {
                return c;
            }
        }
        throw new AssertionError("no memory-large-body-limiter check in " + ready.body());
    }
}
