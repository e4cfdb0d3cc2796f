-- A role's position is an order key with gaps (store/roles.h): @everyone takes the lowest key,
-- so new roles are keyed below the others without moving them.
UPDATE roles SET position = -4611686018427387904 WHERE id = server_id;
