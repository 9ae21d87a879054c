package org.agentmemory.rest;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The error page of requests the servlet container refuses before the REST layer sees them, such as a path whose
 * percent-escapes are not valid UTF-8 ({@code /conversations/%FF%FE}): the container's own page is HTML, while
 * every error of this service is {@code application/problem+json} (issue 31, fuzz test). Mapped for status 400
 * in {@code web.xml}.
 */
@WebServlet(urlPatterns = ProtocolErrorPage.PATH)
public class ProtocolErrorPage extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Where {@code web.xml} sends the container's 400 answers. */
    static final String PATH = "/protocol-error";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : HttpServletResponse.SC_BAD_REQUEST;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = uri == null ? null : uri.toString();
        String field = path == null ? "path" : undecodableParameter(path);
        Problem problem = new Problem(
                Problem.type("http-" + status),
                "Bad request",
                status,
                "The server could not read the request: "
                        + (field.equals("path") ? "its path or query" : "path parameter " + field)
                        + " holds a percent-escape that is not valid UTF-8, or a header or escape is malformed. Encode"
                        + " every parameter as UTF-8 and percent-escape its bytes.",
                path,
                field,
                "url-encoding");
        response.setStatus(status);
        response.setContentType(Problem.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(RestJson.mapper().writeValueAsString(problem));
    }

    /**
     * Names the path parameter whose segment is not valid UTF-8, by the segment before it ({@code conversations/{id}},
     * {@code turns/{sequence}}, {@code omissions/{contentId}}, {@code episodes/{episodeId}}); {@code "path"} when
     * no such segment is found.
     */
    static String undecodableParameter(String rawPath) {
        String[] segments = rawPath.split("/");
        for (int i = 1; i < segments.length; i++) {
            if (!decodes(segments[i])) {
                return switch (segments[i - 1]) {
                    case "conversations" -> "id";
                    case "turns" -> "sequence";
                    case "omissions" -> "contentId";
                    case "episodes" -> "episodeId";
                    default -> "path";
                };
            }
        }
        return "path";
    }

    private static boolean decodes(String segment) {
        if (segment.indexOf('%') < 0) {
            return true;
        }
        try {
            byte[] bytes = java.net.URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.ISO_8859_1)
                    .getBytes(StandardCharsets.ISO_8859_1);
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
