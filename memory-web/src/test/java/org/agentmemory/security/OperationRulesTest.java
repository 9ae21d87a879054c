package org.agentmemory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.junit.jupiter.api.Test;

/**
 * Every REST operation declares its role, and the OpenAPI document says the same: a new resource method without a
 * rule is refused by {@link AuthorizationFilter} (fail closed) and fails this test.
 */
class OperationRulesTest {

    @Test
    void everyResourceMethodDeclaresOneRoleAndDocumentsIt() {
        List<String> problems = new ArrayList<>();
        int operations = 0;
        for (JavaClass type : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.agentmemory")) {
            Class<?> resource = type.reflect();
            if (!resource.isAnnotationPresent(Path.class)) {
                continue;
            }
            for (Method method : resource.getDeclaredMethods()) {
                if (!isOperation(method)) {
                    continue;
                }
                operations++;
                AuthorizationFilter.Rule rule = AuthorizationFilter.rule(resource, method);
                String name = resource.getSimpleName() + "." + method.getName();
                if (rule.permitAll()
                        || rule.roles().size() != 1
                        || !Roles.ALL.contains(rule.roles().get(0))) {
                    problems.add(name + ": " + rule);
                    continue;
                }
                SecurityRequirement documented = method.getAnnotation(SecurityRequirement.class);
                if (documented == null) {
                    documented = resource.getAnnotation(SecurityRequirement.class);
                }
                if (documented == null
                        || !Set.of(documented.scopes())
                                .equals(Set.of(rule.roles().get(0)))) {
                    problems.add(name + ": OpenAPI security requirement does not name " + rule.roles());
                }
            }
        }
        assertThat(operations).isGreaterThan(50);
        assertThat(problems).isEmpty();
    }

    private static boolean isOperation(Method method) {
        return method.isAnnotationPresent(GET.class)
                || method.isAnnotationPresent(POST.class)
                || method.isAnnotationPresent(PUT.class)
                || method.isAnnotationPresent(DELETE.class)
                || method.isAnnotationPresent(PATCH.class)
                || method.isAnnotationPresent(HEAD.class);
    }
}
