package org.agentmemory.probe;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * Runs as the application user that logged in (BASIC, see web.xml) and calls the memory service's local view
 * through its java:global name with a key of tenant {@code default}: the service acts in the caller's tenant instead
 * ({@code memory.security.ejb.tenants}). {@code GET /memory-probe/secured-probe?user=U} appends one turn and answers
 * {@code caller=<principal> tenant=<tenant of the stored conversation> turns=<n>}.
 */
@WebServlet("/secured-probe")
public class SecuredProbeServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConversationKey key = ConversationKey.of("probe", request.getParameter("user"), "secured");
        response.setContentType("text/plain;charset=UTF-8");
        try {
            ConversationMemory memory = (ConversationMemory) new InitialContext().lookup(ProbeServlet.LOCAL);
            memory.addTurn(key, TurnRecord.of("secured-" + UUID.randomUUID(), "as the logged-in user", "ok"));
            var history = memory.getHistory(key);
            response.getWriter()
                    .print("caller=" + request.getUserPrincipal().getName() + " tenant="
                            + history.key().tenantId() + " turns="
                            + history.turns().size());
        } catch (NamingException | MemoryException | RuntimeException e) {
            response.setStatus(500);
            response.getWriter().print("probe failed: " + e);
        }
    }
}
