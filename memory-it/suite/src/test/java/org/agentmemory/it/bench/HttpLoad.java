package org.agentmemory.it.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;

/**
 * The benchmarks' HTTP client: keep-alive HTTP/1.1 through HttpURLConnection, cheap on CPU so that on a small
 * machine the client takes as little as possible from the server it measures.
 */
final class HttpLoad {

    private HttpLoad() {}

    /** POSTs a JSON body, drains the answer (so the connection is reused) and returns the status (-1 on I/O error). */
    static int post(URL url, byte[] body) {
        try {
            HttpURLConnection con = open(url, body);
            int status = con.getResponseCode();
            try (InputStream in = status < 400 ? con.getInputStream() : con.getErrorStream()) {
                byte[] buffer = new byte[16 * 1024];
                while (in != null && in.read(buffer) >= 0) {
                    // drain
                }
            }
            return status;
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * One request over a kept-alive connection: POST with a JSON body when {@code body} is given, else GET.
     *
     * @return the response body
     * @throws IOException on I/O errors
     * @throws IllegalStateException when the answer is not 200 (with the answer's body)
     */
    static byte[] call(URL url, byte[] body) throws IOException {
        HttpURLConnection con = open(url, body);
        int status = con.getResponseCode();
        byte[] answer;
        try (InputStream in = status < 400 ? con.getInputStream() : con.getErrorStream()) {
            answer = in == null ? new byte[0] : in.readAllBytes();
        }
        if (status != 200) {
            throw new IllegalStateException(
                    url + " answered " + status + ": " + new String(answer, java.nio.charset.StandardCharsets.UTF_8));
        }
        return answer;
    }

    /** The bearer token every call sends ({@link #useToken}); null sends none. */
    private static volatile String token;

    /** @param bearer the token every later call sends (a server's development token) */
    static void useToken(String bearer) {
        token = bearer;
    }

    private static HttpURLConnection open(URL url, byte[] body) throws IOException {
        HttpURLConnection con = (HttpURLConnection) url.openConnection();
        String bearer = token;
        if (bearer != null) {
            con.setRequestProperty("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            con.setRequestMethod("POST");
            con.setDoOutput(true);
            con.setRequestProperty("Content-Type", "application/json");
            con.setFixedLengthStreamingMode(body.length);
            try (OutputStream out = con.getOutputStream()) {
                out.write(body);
            }
        }
        return con;
    }
}
