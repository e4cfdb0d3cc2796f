-- Every foreign key that is looked up or cascaded has an index that starts with its columns:
-- without one, deleting a parent scans the child table once per deleted row.
CREATE INDEX channels_by_parent ON channels(parent_id, created_at);
CREATE INDEX read_states_by_channel ON read_states(channel_id);
CREATE INDEX authorize_sessions_by_user ON authorize_sessions(user_id);
CREATE INDEX authorize_sessions_by_application ON authorize_sessions(application_id);
CREATE INDEX bans_by_user ON bans(user_id);
CREATE INDEX installs_by_role ON installs(role_id);
CREATE INDEX interactions_by_user ON interactions(user_id);
CREATE INDEX interactions_by_server ON interactions(server_id);
CREATE INDEX interactions_by_application ON interactions(application_id);
CREATE INDEX invites_by_creator ON invites(created_by);
CREATE INDEX servers_by_owner ON servers(owner_id);
