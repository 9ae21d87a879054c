package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;

/**
 * When a fault-tolerance policy gives up, the client gets 503 with Retry-After and a problem body. The H2
 * server is started with the import bulkhead at 1 (MicroProfile Config override): an import that is still
 * receiving its body holds the only permit, and a second import is refused at once.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it needs the H2 server's bulkhead of one import at a time.
 */
class ServiceUnavailableIT {

    @Test
    void aFullBulkheadAnswers503WithRetryAfter() throws Exception {
        Api api = Api.h2();
        URI uri = api.uri("/import");
        String user = Turns.unique("bulkhead");
        String firstLine = "{\"key\":{\"userId\":\"" + user
                + "\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"1\",\"userMessage\":\"first\"}}\n";
        String secondLine = "{\"key\":{\"userId\":\"" + user
                + "\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"2\",\"userMessage\":\"second\"}}\n";
        byte[] first = firstLine.getBytes(StandardCharsets.UTF_8);
        byte[] second = secondLine.getBytes(StandardCharsets.UTF_8);
        String probe = "{\"key\":{\"userId\":\"" + user + "-probe\",\"sessionId\":\"s\"},\"turn\":{}}\n";
        boolean observed = false;
        for (int attempt = 0; attempt < 5 && !observed; attempt++) {
            try (Socket slow = new Socket(uri.getHost(), uri.getPort())) {
                OutputStream out = slow.getOutputStream();
                out.write(("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n"
                                + "Authorization: Bearer " + api.token() + "\r\n"
                                + "Content-Type: application/x-ndjson\r\nContent-Length: "
                                + (first.length + second.length)
                                + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(first);
                out.flush();
                // Give the server time to dispatch the slow import into the resource method, where it waits for
                // the rest of its body while holding the only permit.
                Thread.sleep(500);
                InputStream in = slow.getInputStream();
                if (in.available() > 0) {
                    continue; // it was answered already (refused while the previous attempt's probe held the permit)
                }
                Api.Response refused = api.postRaw("/import", probe, "application/x-ndjson");
                assertThat(refused.status()).as(refused.body()).isEqualTo(503);
                assertThat(refused.header("Retry-After")).isEqualTo("1");
                assertThat(refused.contentType()).startsWith("application/problem+json");
                assertThat(refused.json().get("detail").asText()).contains("Too many concurrent requests");
                observed = true;

                out.write(second);
                out.flush();
                String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 200");
                assertThat(answer).contains("\"turnsImported\":2");
            }
        }
        assertThat(observed).as("the bulkhead refused a concurrent import").isTrue();
        assertThat(api.postRaw("/import", secondLine.replace(user, user + "-after"), "application/x-ndjson")
                        .status())
                .as("the permit is released afterwards")
                .isEqualTo(200);
    }
}
